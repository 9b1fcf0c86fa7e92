package dev.fedbpt.actors.cluster;

import dev.fedbpt.actors.Evaluator;
import dev.fedbpt.actors.ExperimentData;
import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.method.HeldApart;
import dev.fedbpt.engine.method.Participation;
import java.util.function.IntFunction;

/**
 * What every member derives from the experiment's configuration alone: the clients' data by id and the test set
 * (and a personalised client's own test rows and held-apart rows, null where it has none). A client's data is looked
 * up (or rebuilt) when its entity starts, so nothing about a client is stored anywhere.
 */
public record Population(int size, IntFunction<LocalData> clientData, Evaluator.TestSet testSet,
                         IntFunction<LocalData> clientTests, Participation participation,
                         IntFunction<HeldApart> clientHeldApart) {

    /** Clients without test rows of their own, all taking part. */
    public Population(int size, IntFunction<LocalData> clientData, Evaluator.TestSet testSet) {
        this(size, clientData, testSet, id -> null, Participation.everyone(size));
    }

    /** Clients without held-apart rows. */
    public Population(int size, IntFunction<LocalData> clientData, Evaluator.TestSet testSet,
                      IntFunction<LocalData> clientTests, Participation participation) {
        this(size, clientData, testSet, clientTests, participation, id -> null);
    }

    public static Population of(ExperimentData data) {
        return new Population(data.clients().size(), data.clients()::get, data.testSet(), data::clientTest,
                data.participation(), data::heldApart);
    }
}
