package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fedbpt.config.ExperimentConfig;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What {@link dev.fedbpt.engine.method.MethodTraits#unreadKeys} promises, checked by running: a method that does not read the
 * client split computes the same run under every split, so a sweep may compute it once ({@code runIdentity}).
 */
class UnreadKeysTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"centralised-bbt", "zero-shot", "icl"})
    void aMethodThatDoesNotSplitTheDataComputesTheSameRunUnderEverySplit(String method) {
        ExperimentConfig iid = TestRuns.config("experiment.method=" + method, "data.split=iid",
                "experiment.name=a");
        ExperimentConfig dirichlet = TestRuns.config("experiment.method=" + method, "data.split=dirichlet",
                "data.dirichlet-alpha=0.3", "experiment.name=b");
        assertEquals(List.of("data.split", "data.dirichlet-alpha"), iid.experiment().traits().unreadKeys());
        assertEquals(iid.runIdentity(), dirichlet.runIdentity());
        assertNotEquals(iid.canonicalHash(), dirichlet.canonicalHash());

        assertEquals(run(iid, "iid"), run(dirichlet, "dirichlet"));
    }

    @Test
    void federatedMethodsReadTheSplitAndItChangesTheirRun() {
        ExperimentConfig iid = TestRuns.config("experiment.method=fedbpt", "data.split=iid");
        ExperimentConfig dirichlet = TestRuns.config("experiment.method=fedbpt", "data.split=dirichlet",
                "data.dirichlet-alpha=0.3");
        assertTrue(iid.experiment().traits().unreadKeys().isEmpty());
        assertNotEquals(iid.runIdentity(), dirichlet.runIdentity());
        assertNotEquals(run(iid, "iid"), run(dirichlet, "dirichlet"));
    }

    @Test
    void theNameIsNotPartOfTheIdentityButTheSeedIs() {
        ExperimentConfig one = TestRuns.config("experiment.name=one");
        assertEquals(one.runIdentity(), TestRuns.config("experiment.name=two").runIdentity());
        assertNotEquals(one.runIdentity(), TestRuns.config("experiment.name=one", "experiment.seed=99").runIdentity());
    }

    /** The numbers a run produced: the result's accuracies and hash, and every round's metrics but its wall times. */
    private String run(ExperimentConfig config, String folder) {
        Path runDirectory = dir.resolve(folder);
        ExperimentRunner.Outcome outcome = TestRuns.run(config, runDirectory);
        assertTrue(outcome.succeeded(), outcome.failure());
        JsonNode result = TestRuns.result(runDirectory);
        StringBuilder numbers = new StringBuilder()
                .append(result.get("zero_shot_accuracy")).append(' ')
                .append(result.get("final_accuracy")).append(' ')
                .append(result.get("global_mean_sha256"));
        for (JsonNode round : TestRuns.metrics(runDirectory)) {
            ((ObjectNode) round).remove("wall_ms");
            ((ObjectNode) round).remove("eval_ms");
            numbers.append('\n').append(round);
        }
        return numbers.toString();
    }
}
