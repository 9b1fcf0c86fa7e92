package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.actor.typed.receptionist.Receptionist;
import com.typesafe.config.ConfigFactory;
import dev.fedbpt.engine.method.Gradient;
import dev.fedbpt.engine.method.Prompt;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The way to a pool on another member: found by the receptionist, requests kept until answered, a bounded wait. */
class PoolLinkTest {
    private static final ActorTestKit KIT = ActorTestKit.create(AkkaDefaults.over(ConfigFactory.empty()));
    private static final List<int[]> ROWS = List.of(new int[] {1, 2, 3});

    @AfterAll
    static void shutdown() {
        KIT.shutdownTestKit();
    }

    @Test
    void requestsInFlightGoToTheNextPoolWhenTheirPoolIsGone() {
        TestProbe<InferencePool.Command> first = KIT.createTestProbe();
        TestProbe<InferencePool.Command> second = KIT.createTestProbe();
        TestProbe<InferencePool.Reply> requester = KIT.createTestProbe();
        register(first.getRef());
        ActorRef<PoolLink.Command> link = KIT.spawn(PoolLink.create(Duration.ofSeconds(30), Duration.ofSeconds(30),
                reason -> {}));
        link.tell(new InferencePool.ScoreRows(42, new Prompt.Continuous(new double[] {0.5}), ROWS, requester.getRef()));
        InferencePool.ScoreRows sent = first.expectMessageClass(InferencePool.ScoreRows.class, Duration.ofSeconds(5));

        deregister(first.getRef());
        register(second.getRef());
        InferencePool.ScoreRows again = second.expectMessageClass(InferencePool.ScoreRows.class, Duration.ofSeconds(5));
        assertEquals(sent.requestId(), again.requestId(), "the same request, sent again");
        again.replyTo().tell(new InferencePool.Scored(again.requestId(), new float[][] {{1f, 2f}}));
        InferencePool.Scored scored = requester.expectMessageClass(InferencePool.Scored.class);
        assertEquals(42, scored.requestId(), "the requester gets its own id back");
        sent.replyTo().tell(new InferencePool.Scored(sent.requestId(), new float[][] {{1f, 2f}}));
        requester.expectNoMessage(Duration.ofMillis(200)); // a second answer to the same request is dropped
        deregister(second.getRef());
    }

    @Test
    void withNoPoolWithinTheWaitRequestsFailWithTheReason() throws Exception {
        TestProbe<InferencePool.Reply> requester = KIT.createTestProbe();
        CompletableFuture<String> gone = new CompletableFuture<>();
        ActorRef<PoolLink.Command> link = KIT.spawn(PoolLink.create(Duration.ofMillis(300), Duration.ofSeconds(30),
                gone::complete));
        link.tell(new InferencePool.ScoreRows(7, null, ROWS, requester.getRef()));

        InferencePool.Failed failed = requester.expectMessageClass(InferencePool.Failed.class, Duration.ofSeconds(5));
        assertEquals(7, failed.requestId());
        assertTrue(failed.reason().contains("no inference pool reachable for 300 ms"), failed.reason());
        assertEquals(failed.reason(), gone.get(5, TimeUnit.SECONDS));
    }

    @Test
    void beforeAnyPoolIsSeenRequestsWaitTheLongerFirstWait() {
        TestProbe<InferencePool.Command> late = KIT.createTestProbe();
        TestProbe<InferencePool.Reply> requester = KIT.createTestProbe();
        ActorRef<PoolLink.Command> link = KIT.spawn(PoolLink.create(Duration.ofSeconds(30), Duration.ofMillis(300),
                reason -> {}));
        link.tell(new InferencePool.ScoreRows(9, new Prompt.Continuous(new double[] {0.5}), ROWS, requester.getRef()));
        requester.expectNoMessage(Duration.ofMillis(900)); // three times the wait for a pool that went away

        register(late.getRef());
        InferencePool.ScoreRows sent = late.expectMessageClass(InferencePool.ScoreRows.class, Duration.ofSeconds(5));
        sent.replyTo().tell(new InferencePool.Scored(sent.requestId(), new float[][] {{1f, 2f}}));
        assertEquals(9, requester.expectMessageClass(InferencePool.Scored.class).requestId());
        deregister(late.getRef());
    }

    /** A gradient step and a kernel request go on as what they are, and their answers come back under the own ids. */
    @Test
    void whiteBoxRequestsKeepTheirKindOnTheWayAndBack() {
        TestProbe<InferencePool.Command> pool = KIT.createTestProbe();
        TestProbe<InferencePool.Reply> requester = KIT.createTestProbe();
        register(pool.getRef());
        ActorRef<PoolLink.Command> link = KIT.spawn(PoolLink.create(Duration.ofSeconds(30), Duration.ofSeconds(30),
                reason -> {}));
        Prompt.Deep deep = Prompt.Deep.input(1, new double[] {0.5, 1.5});
        int[] labels = {1};
        link.tell(new InferencePool.ComputeGradient(11, deep, ROWS, labels, requester.getRef()));
        var step = pool.expectMessageClass(InferencePool.ComputeGradient.class, Duration.ofSeconds(5));
        assertSame(deep, step.prompt());
        assertSame(ROWS, step.rows());
        assertSame(labels, step.labels());
        Gradient gradient = new Gradient(0.25, new double[] {1, 2}, new double[0]);
        step.replyTo().tell(new InferencePool.GradientComputed(step.requestId(), gradient));
        var computed = requester.expectMessageClass(InferencePool.GradientComputed.class);
        assertEquals(11, computed.requestId());
        assertSame(gradient, computed.gradient());

        link.tell(new InferencePool.ComputeKernels(12, ROWS, requester.getRef()));
        var kernels = pool.expectMessageClass(InferencePool.ComputeKernels.class, Duration.ofSeconds(5));
        assertSame(ROWS, kernels.rows());
        double[][][] answer = {{{1}}};
        kernels.replyTo().tell(new InferencePool.KernelsComputed(kernels.requestId(), answer));
        var kernelsBack = requester.expectMessageClass(InferencePool.KernelsComputed.class);
        assertEquals(12, kernelsBack.requestId());
        assertSame(answer, kernelsBack.kernels());
        deregister(pool.getRef());
    }

    private static void register(ActorRef<InferencePool.Command> pool) {
        KIT.system().receptionist().tell(Receptionist.register(PoolLink.POOL_KEY, pool));
    }

    private static void deregister(ActorRef<InferencePool.Command> pool) {
        KIT.system().receptionist().tell(Receptionist.deregister(PoolLink.POOL_KEY, pool));
    }
}
