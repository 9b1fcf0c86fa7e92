package dev.fedbpt.actors;

import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.engine.method.Methods;
import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;
import dev.fedbpt.inference.ScoreRow;
import dev.fedbpt.persistence.RoundIncidents;
import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;

/**
 * The configured faults ({@code faults { ... }}): each decision is a uniform draw from the experiment seed and the
 * decision's coordinates, compared with its rate. Client faults are keyed by (round, attempt, client), worker
 * crashes by batch id, score corruption by the row's content (prompt z and tokens), so which rows break does not
 * depend on how the pool happened to batch them. Counts every fault it injects.
 */
public final class SeededFaults implements FaultInjector {
    // Sub-purposes, mixed in as the first coordinate; append only.
    private static final int DROP = 0;
    private static final int CRASH = 1;
    private static final int CRASH_POINT = 2;
    private static final int DELAY = 3;
    private static final int DELAY_LENGTH = 4;
    private static final int WORKER = 5;
    private static final int SCORE = 6;
    private static final int SCORE_KIND = 7;

    private final ExperimentConfig.Faults rates;
    private final long seed;
    private final int localIterations;
    private final LongAdder clientDrops = new LongAdder();
    private final LongAdder clientCrashes = new LongAdder();
    private final LongAdder clientDelays = new LongAdder();
    private final LongAdder workerCrashes = new LongAdder();
    private final LongAdder scoreCorruptions = new LongAdder();

    public SeededFaults(ExperimentConfig.Faults rates, long seed, int localIterations) {
        this.rates = rates;
        this.seed = seed;
        this.localIterations = localIterations;
    }

    /** The injector a configuration asks for: {@link FaultInjector#NONE} when every rate is zero. */
    public static FaultInjector from(ExperimentConfig config) {
        return config.faults().any()
                ? new SeededFaults(config.faults(), config.experiment().seed(),
                        Methods.needs(config.experiment().method(), config.settings()).localSteps())
                : FaultInjector.NONE;
    }

    @Override
    public ClientFault clientFault(int round, int attempt, int clientId) {
        if (draw(DROP, round, attempt, clientId) < rates.clientDropRate()) {
            clientDrops.increment();
            return new ClientFault(true, -1, Duration.ZERO);
        }
        int crashAt = -1;
        if (draw(CRASH, round, attempt, clientId) < rates.clientCrashRate()) {
            clientCrashes.increment();
            crashAt = (int) (draw(CRASH_POINT, round, attempt, clientId) * localIterations);
        }
        Duration delay = Duration.ZERO;
        if (crashAt < 0 && draw(DELAY, round, attempt, clientId) < rates.clientDelayRate()) {
            clientDelays.increment();
            double u = draw(DELAY_LENGTH, round, attempt, clientId);
            delay = Duration.ofNanos((long) (-Math.log1p(-u) * rates.clientDelayMean().toNanos()));
        }
        return new ClientFault(false, crashAt, delay);
    }

    @Override
    public boolean workerCrashes(int worker, long batchId) {
        boolean crash = draw(WORKER, worker, (int) (batchId >>> 32), (int) batchId) < rates.workerCrashRate();
        if (crash) {
            workerCrashes.increment();
        }
        return crash;
    }

    @Override
    public Float corruptedScore(ScoreRow row) {
        if (!(rates.scoreCorruptionRate() > 0)) {
            return null;
        }
        long key = contentHash(row);
        if (draw(SCORE, (int) (key >>> 32), (int) key) >= rates.scoreCorruptionRate()) {
            return null;
        }
        scoreCorruptions.increment();
        return draw(SCORE_KIND, (int) (key >>> 32), (int) key) < 0.5 ? Float.NaN : Float.POSITIVE_INFINITY;
    }

    @Override
    public RoundIncidents drainCounts() {
        return new RoundIncidents(clientDrops.sumThenReset(), clientCrashes.sumThenReset(),
                clientDelays.sumThenReset(), workerCrashes.sumThenReset(), scoreCorruptions.sumThenReset(), 0, 0, 0);
    }

    private double draw(int kind, int... coordinates) {
        int[] all = new int[coordinates.length + 1];
        all[0] = kind;
        System.arraycopy(coordinates, 0, all, 1, coordinates.length);
        return Rng.uniform(seed, Purpose.FAULTS, all);
    }

    private static long contentHash(ScoreRow row) {
        long h = 1125899906842597L;
        if (row.z() != null) {
            for (double v : row.z()) {
                h = 31 * h + Double.doubleToLongBits(v);
            }
        }
        if (row.embeds() != null) {
            for (float v : row.embeds()) {
                h = 31 * h + Float.floatToIntBits(v);
            }
        }
        for (int token : row.tokenIds()) {
            h = 31 * h + token;
        }
        return h;
    }
}
