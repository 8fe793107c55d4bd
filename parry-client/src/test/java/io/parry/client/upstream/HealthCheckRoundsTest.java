package io.parry.client.upstream;

import static io.parry.client.upstream.OutlierEjectionTest.fail;
import static io.parry.client.upstream.OutlierEjectionTest.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.client.ClientSender;
import io.parry.client.Endpoint;
import io.parry.http.HttpMethod;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import java.net.ConnectException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Health checks driven by a sender the test answers. A check of an endpoint starts only after the
 * previous one was recorded, so receiving the next call is the event that says the last answer counted.
 */
class HealthCheckRoundsTest {
    private final Endpoint a = Endpoint.of("10.0.0.1", 80);
    private final Endpoint b = Endpoint.of("10.0.0.2", 80);
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final ScriptedSender sender = new ScriptedSender();

    @AfterEach
    void stopScheduler() {
        scheduler.shutdownNow();
    }

    @Test
    void sendsGetOfThePathWithTheHealthCheckUserAgent() throws Exception {
        Upstream upstream = checked(HealthCheck.builder("/health?deep=1"), a);
        upstream.startHealthChecks(sender, scheduler);

        ScriptedSender.Call call = sender.next();

        assertThat(call.endpoint).isEqualTo(a);
        assertThat(call.request.method()).isEqualTo(HttpMethod.GET);
        assertThat(call.request.target()).isEqualTo("/health?deep=1");
        assertThat(call.request.headers().get("user-agent")).isEqualTo("parry-health-check");
        upstream.close();
    }

    @Test
    void failsAfterUnhealthyThresholdFailuresAndPassesAgainAfterHealthyThresholdPasses() throws Exception {
        Upstream upstream =
                checked(HealthCheck.builder("/health").unhealthyThreshold(3).healthyThreshold(2), a);
        upstream.startHealthChecks(sender, scheduler);

        sender.next().answer(503);
        sender.next().answer(500);
        ScriptedSender.Call third = sender.next();
        assertThat(upstream.hasHealthyEndpoint()).as("after two failures").isTrue();
        third.answer(404);
        ScriptedSender.Call fourth = sender.next();
        assertThat(status(upstream, a).healthCheckPassing())
                .as("after three failures")
                .isFalse();
        assertThat(upstream.select(e -> true)).isEmpty();

        fourth.answer(200);
        ScriptedSender.Call sixth = answerNext(302);
        assertThat(upstream.hasHealthyEndpoint()).as("after two passes").isTrue();
        assertThat(upstream.select(e -> true)).contains(a);
        sixth.answer(200);
        upstream.close();
    }

    @Test
    void aPassBetweenFailuresStartsTheCountAgain() throws Exception {
        Upstream upstream = checked(HealthCheck.builder("/health").unhealthyThreshold(2), a);
        upstream.startHealthChecks(sender, scheduler);

        sender.next().answer(503);
        sender.next().answer(200);
        sender.next().answer(503);
        sender.next();

        assertThat(status(upstream, a).healthCheckPassing()).isTrue();
        upstream.close();
    }

    @Test
    void aFailedCallOrATimeoutFailsTheCheck() throws Exception {
        Upstream upstream =
                checked(HealthCheck.builder("/health").unhealthyThreshold(2).timeout(Duration.ofMillis(30)), a);
        upstream.startHealthChecks(sender, scheduler);

        sender.next().fail(new ConnectException("refused"));
        ScriptedSender.Call unanswered = sender.next();
        sender.next();

        assertThat(status(upstream, a).healthCheckPassing()).isFalse();
        unanswered.answer(200);
        unanswered.bodyDone.get(5, TimeUnit.SECONDS);
        upstream.close();
    }

    @Test
    void readsTheBodyOfEveryAnswer() throws Exception {
        Upstream upstream = checked(HealthCheck.builder("/health"), a);
        upstream.startHealthChecks(sender, scheduler);

        ScriptedSender.Call passing = sender.next();
        passing.answer(200);
        ScriptedSender.Call failing = sender.next();
        failing.answer(503);

        passing.bodyDone.get(5, TimeUnit.SECONDS);
        failing.bodyDone.get(5, TimeUnit.SECONDS);
        upstream.close();
    }

    @Test
    void neverOverlapsChecksOfOneEndpoint() throws Exception {
        AtomicInteger callsToA = new AtomicInteger();
        CountDownLatch fiveChecksOfB = new CountDownLatch(5);
        ClientSender hangingOnA = (endpoint, request) -> {
            if (endpoint.equals(a)) {
                callsToA.incrementAndGet();
                return new CompletableFuture<>();
            }
            fiveChecksOfB.countDown();
            return HttpResponse.of(HttpStatus.OK).toStage();
        };
        Upstream upstream = checked(HealthCheck.builder("/health").timeout(Duration.ofSeconds(30)), a, b);
        upstream.startHealthChecks(hangingOnA, scheduler);

        assertThat(fiveChecksOfB.await(5, TimeUnit.SECONDS)).isTrue();

        assertThat(callsToA).hasValue(1);
        upstream.close();
    }

    @Test
    void closeStopsTheChecks() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        Upstream closing = checked(HealthCheck.builder("/health"), a);
        closing.startHealthChecks(
                (endpoint, request) -> {
                    calls.incrementAndGet();
                    return HttpResponse.of(HttpStatus.OK).toStage();
                },
                scheduler);
        Upstream clock = checked(HealthCheck.builder("/health"), b);
        clock.startHealthChecks(sender, scheduler);
        ScriptedSender.Call tick = sender.next();

        closing.close();
        // The scheduler has one thread, and the clock's next check starts only after this answer: once
        // it is sent, any round of the closed group that was running has ended.
        tick.answer(200);
        tick = sender.next();
        int callsAfterClose = calls.get();
        for (int i = 0; i < 3; i++) {
            tick.answer(200);
            tick = sender.next();
        }

        assertThat(calls).hasValue(callsAfterClose);
        clock.close();
    }

    @Test
    void refusesToStartTwice() {
        Upstream upstream = checked(HealthCheck.builder("/health"), a);
        upstream.startHealthChecks(sender, scheduler);

        assertThatThrownBy(() -> upstream.startHealthChecks(sender, scheduler))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("upstream checked health checks started already");
        upstream.close();
    }

    @Test
    void neverEjectsTheLastEndpointPassingItsCheck() throws Exception {
        Upstream upstream = checked(HealthCheck.builder("/health").unhealthyThreshold(1), a, b);
        upstream.startHealthChecks(sender, scheduler);
        answerFor(b, 503, a, 200);
        answerFor(b, 503, a, 200);
        assertThat(status(upstream, b).healthCheckPassing()).isFalse();

        fail(upstream, a, 5);

        assertThat(status(upstream, a).ejected()).isFalse();
        assertThat(upstream.select(e -> true)).contains(a);
        upstream.close();
    }

    @Test
    void endsEjectionsEarlyWhenEveryOtherEndpointFailsItsCheck() throws Exception {
        Upstream upstream = checked(HealthCheck.builder("/health").unhealthyThreshold(1), a, b);
        fail(upstream, a, 5);
        assertThat(status(upstream, a).ejected()).isTrue();
        upstream.startHealthChecks(sender, scheduler);

        answerFor(b, 503, a, 200);
        answerFor(b, 200, a, 200);

        assertThat(status(upstream, a).ejected()).isFalse();
        assertThat(upstream.select(e -> true)).contains(a);
        upstream.close();
    }

    private Upstream checked(HealthCheck.Builder check, Endpoint... endpoints) {
        return Upstream.builder("checked")
                .endpoints(List.of(endpoints))
                .healthCheck(check.interval(Duration.ofMillis(10)).build())
                .build();
    }

    /** Answers the next call and returns the one after it, which proves the answer was recorded. */
    private ScriptedSender.Call answerNext(int status) throws InterruptedException {
        sender.next().answer(status);
        return sender.next();
    }

    /** Answers one round of checks of two endpoints, in whatever order they come. */
    private void answerFor(Endpoint first, int firstStatus, Endpoint second, int secondStatus)
            throws InterruptedException {
        for (int i = 0; i < 2; i++) {
            ScriptedSender.Call call = sender.next();
            call.answer(call.endpoint.equals(first) ? firstStatus : secondStatus);
        }
    }
}
