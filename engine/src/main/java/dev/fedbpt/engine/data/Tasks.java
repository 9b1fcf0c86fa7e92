package dev.fedbpt.engine.data;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The tasks of the FedBPT paper with its manual prompt templates (appendix C, RoBERTa column). The paper gives the
 * templates but not the label words; these are the ones of BBT (Sun et al., 2022), on which FedBPT builds.
 */
public final class Tasks {
    private Tasks() {
    }

    public static final TaskDefinition SST2 = new TaskDefinition("sst2", 2, DatasetReaders.SENTIMENT_LABELS,
            "{text} . It was [MASK] .", List.of("bad", "great"),
            List.of("It was terrible.", "It was great."));

    public static final TaskDefinition AG_NEWS = new TaskDefinition("ag-news", 4, DatasetReaders.AG_NEWS_LABELS,
            "[MASK] News: {text}", List.of("World", "Sports", "Business", "Tech"),
            List.of("This is world news.", "This is sports news.", "This is business news.",
                    "This is science and technology news."));

    public static final TaskDefinition YELP_POLARITY = new TaskDefinition("yelp-polarity", 2,
            DatasetReaders.SENTIMENT_LABELS, "{text} . It was [MASK] .", List.of("bad", "good"),
            List.of("It was bad.", "It was good."));

    /** The project's own small sentiment sample ({@link SampleData}), posed exactly like SST-2. */
    public static final TaskDefinition SAMPLE_SENTIMENT = new TaskDefinition("sample-sentiment", 2,
            DatasetReaders.SENTIMENT_LABELS, SST2.template(), SST2.labelWords(), SST2.labelDescriptions());

    private static final List<TaskDefinition> ALL = List.of(SST2, AG_NEWS, YELP_POLARITY, SAMPLE_SENTIMENT);

    public static List<TaskDefinition> all() {
        return ALL;
    }

    /**
     * The task with this name, ignoring case, '-' and '_' (so "SST-2", "ag_news", "agnews" and "Yelp-Polarity" all
     * work).
     *
     * @throws IllegalArgumentException listing the valid names
     */
    public static TaskDefinition byName(String name) {
        String key = normalize(name == null ? "" : name);
        for (TaskDefinition t : ALL) {
            if (normalize(t.name()).equals(key)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown task '" + name + "'; valid names: "
                + ALL.stream().map(TaskDefinition::name).collect(Collectors.joining(", ")));
    }

    private static String normalize(String s) {
        return s.strip().toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
    }
}
