package dev.fedbpt.actors;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/** Small per-domain review files (label TAB text) for runs with one client per domain, and their settings. */
final class DomainFiles {
    static final String[] DOMAINS = {"books", "dvd", "kitchen", "music"};

    private DomainFiles() {}

    /** Writes {@code <domain>.train} and {@code <domain>.test} under {@code dir}. */
    static void write(Path dir) {
        Random random = new Random(17);
        String[] good = {"great", "lovely", "superb", "fine"};
        String[] bad = {"awful", "poor", "broken", "dull"};
        try {
            for (String domain : DOMAINS) {
                for (String split : new String[] {"train", "test"}) {
                    StringBuilder tsv = new StringBuilder();
                    for (int i = 0; i < 24; i++) {
                        int label = i % 2;
                        String word = (label == 1 ? good : bad)[random.nextInt(4)];
                        tsv.append(label).append('\t').append("this ").append(domain).append(" item was ")
                                .append(word).append(" number ").append(random.nextInt(50)).append('\n');
                    }
                    Files.writeString(dir.resolve(domain + "." + split), tsv);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** DLS-EC on those files with the synthetic model: small settings, the last domain held out. */
    static String[] dlsEc(Path dir, int rounds) {
        return new String[] {"experiment.method=dls-ec", "experiment.rounds=" + rounds, "experiment.eval-every=2",
                "data.task=fdu-mtl", "data.format=tsv", "data.dir=" + dir, "data.train={domain}.train",
                "data.test={domain}.test", "data.split=domains", "data.domains=[books, dvd, kitchen, music]",
                "data.held-out=[music]", "data.shots-per-class=6", "dls-ec.prompt-length=5",
                "dls-ec.local-steps=4", "dls-ec.candidates=3", "dls-ec.first-pass=30", "dls-ec.phi=3",
                "dls-ec.post-tuning.dimension=8", "dls-ec.post-tuning.population=4",
                "dls-ec.post-tuning.budget=12", "dls-ec.first-token=2000",
                // Held-apart post-tuning from the rows each train file has beside its few-shot set (at least 5 per
                // class once duplicates of few-shot rows are left out).
                "dls-ec.post-tuning.shots-per-class=2", "dls-ec.post-tuning.eval-every=4"};
    }
}
