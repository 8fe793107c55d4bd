package io.parry.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.testing.HandlerTester;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class TrafficSplitTest {

    @Test
    void sendsEveryRunOfOneHundredRequestsExactlyNinetyToTenAndInterleaved() {
        TrafficSplit split =
                TrafficSplit.builder().to(answer("a"), 90).to(answer("b"), 10).build();
        try (HandlerTester tester = HandlerTester.of(split)) {
            Map<String, Integer> counts = new HashMap<>();
            int longestRunOfA = 0;
            int run = 0;
            for (int i = 0; i < 1000; i++) {
                String side = tester.get("/").bodyText();
                counts.merge(side, 1, Integer::sum);
                run = side.equals("a") ? run + 1 : 0;
                longestRunOfA = Math.max(longestRunOfA, run);
            }

            assertThat(counts).containsEntry("a", 900).containsEntry("b", 100);
            assertThat(longestRunOfA).isLessThanOrEqualTo(10);
        }
    }

    @Test
    void spreadsThreeWeightsAsSmoothWeightedRoundRobin() {
        TrafficSplit split = sides(2, 1, 0).build();
        try (HandlerTester tester = HandlerTester.of(split)) {
            StringBuilder sides = new StringBuilder();
            for (int i = 0; i < 6; i++) {
                sides.append(tester.get("/").bodyText());
            }

            assertThat(sides).hasToString("abaaba");
        }
    }

    @Test
    void keepsAUserOnOneSideByAStickyCookieAndSplitsUsersByTheWeights() {
        TrafficSplit split = TrafficSplit.builder()
                .to(answer("a"), 80)
                .to(answer("b"), 20)
                .stickyCookie("user")
                .build();
        try (HandlerTester tester = HandlerTester.of(split)) {
            int onB = 0;
            for (int user = 0; user < 2000; user++) {
                Set<String> sides = new java.util.HashSet<>();
                for (int call = 0; call < 3; call++) {
                    sides.add(tester.send(withHeader("cookie", "theme=dark; user=u" + user))
                            .bodyText());
                }
                assertThat(sides).hasSize(1);
                onB += sides.contains("b") ? 1 : 0;
            }

            // The hash is fixed, so this count is too: 20% of 2000 users is 400, and it stays within 10% of that.
            assertThat(onB).isBetween(360, 440);
        }
    }

    /**
     * A sticky value is the client's to choose, so it may pick any side that takes requests, but never
     * one at weight 0 (a canary turned off), however the value is made.
     */
    @Test
    void neverSendsAStickyUserToASideOfWeightZeroWhateverTheValue() {
        TrafficSplit split = sides(1, 9_999, 0).stickyCookie("user").build();
        try (HandlerTester tester = HandlerTester.of(split)) {
            Set<String> sides = new java.util.HashSet<>();
            for (int user = 0; user < 5000; user++) {
                String value = user % 2 == 0 ? "u" + user : Integer.toString(Integer.MIN_VALUE + user);
                sides.add(tester.send(withHeader("cookie", "user=" + value)).bodyText());
            }

            assertThat(sides).doesNotContain("off").contains("b");
        }
    }

    @Test
    void sendsAStickyUserToTheOtherSideWhileItsSideHasNothingInRotationAndBackAfter() {
        AtomicBoolean canaryUp = new AtomicBoolean(true);
        TrafficSplit split = TrafficSplit.builder()
                .to(answer("stable"), 1, () -> true)
                .to(answer("canary"), 1, canaryUp::get)
                .to(answer("off"), 0)
                .stickyHeader("x-user")
                .build();
        try (HandlerTester tester = HandlerTester.of(split)) {
            String onCanary = null;
            for (int user = 0; onCanary == null; user++) {
                if (tester.send(withHeader("x-user", "u" + user)).bodyText().equals("canary")) {
                    onCanary = "u" + user;
                }
            }

            canaryUp.set(false);
            assertThat(tester.send(withHeader("x-user", onCanary)).bodyText()).isEqualTo("stable");
            assertThat(tester.get("/").bodyText() + tester.get("/").bodyText()).isEqualTo("stablestable");
            canaryUp.set(true);
            assertThat(tester.send(withHeader("x-user", onCanary)).bodyText()).isEqualTo("canary");
        }
    }

    @Test
    void letsTheChosenSideAnswerWhenNoSideIsInRotation() {
        TrafficSplit split = TrafficSplit.builder()
                .to(answer("a"), 1, () -> false)
                .to(answer("b"), 1, () -> false)
                .build();
        try (HandlerTester tester = HandlerTester.of(split)) {
            assertThat(tester.get("/").bodyText() + tester.get("/").bodyText()).isIn("ab", "ba");
        }
    }

    @Test
    void choosesByAStickyHeaderAndCountsRequestsWithoutIt() {
        TrafficSplit split = TrafficSplit.builder()
                .to(answer("a"), 1)
                .to(answer("b"), 1)
                .stickyHeader("x-user")
                .build();
        try (HandlerTester tester = HandlerTester.of(split)) {
            String first = tester.send(withHeader("x-user", "alice")).bodyText();
            for (int i = 0; i < 5; i++) {
                assertThat(tester.send(withHeader("x-user", "alice")).bodyText())
                        .isEqualTo(first);
            }
            assertThat(tester.get("/").bodyText() + tester.get("/").bodyText()).isIn("ab", "ba");
        }
    }

    @Test
    void refusesWeightsThatTakeNoRequestOrTooManySlots() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> TrafficSplit.builder().to(answer("a"), 0).build())
                .withMessage("weights: [0] (expected: a total from 1 to 10000)");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> TrafficSplit.builder().to(answer("a"), -1))
                .withMessage("weight: -1 (expected: 0 to 10000)");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> TrafficSplit.builder().build())
                .withMessage("handlers: none (expected: at least one, added with to)");
    }

    private static Handler answer(String side) {
        return Handler.sync((ctx, request) -> HttpResponse.ofText(side));
    }

    private static HttpRequest withHeader(String name, String value) {
        return HttpRequest.builder(HttpMethod.GET, "/").header(name, value).build();
    }

    /** A split to sides that answer "a", "b" and "off", with these weights. */
    private static TrafficSplit.Builder sides(int a, int b, int off) {
        return TrafficSplit.builder().to(answer("a"), a).to(answer("b"), b).to(answer("off"), off);
    }
}
