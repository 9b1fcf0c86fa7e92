package dev.fedbpt.engine.data;

import java.util.List;

/** Task definitions for the engine's own tests (the shipped ones are task files in the config module). */
final class TestTasks {
    private TestTasks() {}

    static final TaskDefinition SST2 = new TaskDefinition("sst2", List.of("text"), List.of("0", "1"),
            List.of("negative", "positive"), "{text} . It was [MASK] .", List.of("bad", "great"),
            List.of("It was terrible.", "It was great."), List.of(TaskMetric.ACCURACY), -1, null);

    static TaskDefinition pair(ColumnLayout columns) {
        return new TaskDefinition("pair", List.of("sentence1", "sentence2"), List.of("entailment", "not_entailment"),
                List.of("entailment", "not entailment"), "{sentence1} entailment? [MASK]. {sentence2}",
                List.of("yes", "no"), List.of("It follows.", "It does not follow."),
                List.of(TaskMetric.F1, TaskMetric.ACCURACY), 0, columns);
    }
}
