package dev.fedbpt.actors.cluster;

import dev.fedbpt.actors.Evaluator;
import dev.fedbpt.actors.ExperimentData;
import dev.fedbpt.engine.data.LocalData;
import java.util.function.IntFunction;

/**
 * What every member derives from the experiment's configuration alone: the clients' data by id and the test set.
 * A client's data is looked up (or rebuilt) when its entity starts, so nothing about a client is stored anywhere.
 */
public record Population(int size, IntFunction<LocalData> clientData, Evaluator.TestSet testSet) {

    public static Population of(ExperimentData data) {
        return new Population(data.clients().size(), data.clients()::get, data.testSet());
    }
}
