package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.data.Vocabulary;
import dev.fedbpt.engine.method.MethodContext;
import dev.fedbpt.engine.method.MethodTraits;
import dev.fedbpt.engine.method.ModelFacts;
import dev.fedbpt.engine.method.SettingException;
import dev.fedbpt.engine.method.TokenEmbeddings;
import dev.fedbpt.engine.method.Upload;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * What DLS-EC and its BBT baselines share: the first prompt (T ordinary tokens' embeddings), the personalisation
 * round's results (screened, recorded in client id order, reported as P and NP accuracy), and the projection A
 * every client of one JVM shares, built on first use.
 */
final class Personalisation {
    private Personalisation() {}

    /** The embeddings of T ordinary tokens from {@code firstToken} on. */
    static float[][] firstPrompt(int promptLength, int firstToken, ModelFacts model) {
        Vocabulary vocabulary = model.vocabulary();
        TokenEmbeddings embeddings = model.embeddings();
        float[][] prompt = new float[promptLength][];
        for (int t = 0; t < prompt.length; t++) {
            int token = firstToken + t;
            if (token >= vocabulary.size() || vocabulary.isSpecial(token)) {
                throw new SettingException("dls-ec.first-token", "the first prompt's tokens " + firstToken + ".."
                        + (firstToken + promptLength - 1) + " must be ordinary tokens of the " + vocabulary.size()
                        + "-token vocabulary; " + token + " is "
                        + (token >= vocabulary.size() ? "outside it" : "a special token"));
            }
            prompt[t] = embeddings.row(token);
        }
        return prompt;
    }

    /** The personalisation round's uploads in client id order. */
    static List<PersonalResult> results(List<Upload> uploads) {
        List<PersonalResult> results = new ArrayList<>();
        for (Upload upload : uploads) {
            results.add((PersonalResult) upload);
        }
        results.sort(Comparator.comparingInt(PersonalResult::clientId));
        return results;
    }

    /** Why a personalisation round's upload must be refused, or null. */
    static String screen(Upload upload) {
        if (!(upload instanceof PersonalResult r)) {
            return "the personalisation round expects a post-tuning result, got " + upload.getClass().getSimpleName();
        }
        if (r.testCount() < 1 || r.tunedCorrect() < 0 || r.tunedCorrect() > r.testCount()
                || r.globalCorrect() < 0 || r.globalCorrect() > r.testCount()) {
            return "inconsistent test counts " + r.tunedCorrect() + "/" + r.globalCorrect() + " of " + r.testCount();
        }
        return null;
    }

    /**
     * P and NP accuracy after post-tuning, and of the global prompt alone ({@code _untuned}), where measured; under
     * held-apart rows also each client's dev evaluations ({@code post_tuning_dev_evaluations}: one candidate scored
     * on its dev rows, |dev| forward rows, every eval-every forward calls; the same for every client).
     */
    static void report(List<PersonalResult> results, DlsEcConfig.PostTuning settings, Map<String, Double> metrics) {
        if (results.isEmpty()) {
            return;
        }
        if (settings.rows() == DlsEcConfig.Rows.HELD_APART) {
            metrics.put("post_tuning_dev_evaluations", (double) settings.devEvaluations());
        }
        put(metrics, MethodTraits.P_ACCURACY, meanAccuracy(results, true, true));
        put(metrics, MethodTraits.NP_ACCURACY, meanAccuracy(results, false, true));
        put(metrics, "p_accuracy_untuned", meanAccuracy(results, true, false));
        put(metrics, "np_accuracy_untuned", meanAccuracy(results, false, false));
    }

    private static void put(Map<String, Double> metrics, String name, double value) {
        if (!Double.isNaN(value)) {
            metrics.put(name, value);
        }
    }

    /** The mean over clients (not over rows) of the accuracy on each client's own test rows; NaN for none. */
    static double meanAccuracy(List<PersonalResult> results, boolean participants, boolean tuned) {
        double sum = 0;
        int count = 0;
        for (PersonalResult r : results) {
            if (r.participant() == participants) {
                sum += (double) (tuned ? r.tunedCorrect() : r.globalCorrect()) / r.testCount();
                count++;
            }
        }
        return count == 0 ? Double.NaN : sum / count;
    }

    /** The projection A of post-tuning, built on first use from the experiment seed. */
    static Lazy<Projection> projection(DlsEcConfig config, MethodContext context) {
        return new Lazy<>(() -> new Projection(config.promptLength(), context.model().embeddings(),
                config.postTuning().dimension(), context.seed()));
    }
}
