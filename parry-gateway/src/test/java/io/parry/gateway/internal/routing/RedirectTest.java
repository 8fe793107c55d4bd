package io.parry.gateway.internal.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.parry.testing.HandlerTester;
import io.parry.testing.TestResponse;
import org.junit.jupiter.api.Test;

class RedirectTest {

    @Test
    void redirectsToAFixedLocation() {
        try (HandlerTester tester = HandlerTester.of(Redirect.of(301, "/new", false, "/old"))) {
            TestResponse response = tester.get("/old/a?b=1");

            assertThat(response.status()).isEqualTo(301);
            assertThat(response.header("location")).isEqualTo("/new");
        }
    }

    @Test
    void keepsThePathAfterThePrefixAndTheQuery() {
        try (HandlerTester tester = HandlerTester.of(Redirect.of(308, "/new/", true, "/old"))) {
            assertThat(tester.get("/old/a/b?c=1").header("location")).isEqualTo("/new/a/b?c=1");
            assertThat(tester.get("/old").header("location")).isEqualTo("/new/");
        }
    }

    @Test
    void keepsOnlyTheQueryAfterAnExactPath() {
        try (HandlerTester tester = HandlerTester.of(Redirect.of(302, "https://example.com/x", true, null))) {
            assertThat(tester.get("/go?q=1").header("location")).isEqualTo("https://example.com/x?q=1");
        }
    }

    @Test
    void rejectsAStatusThatIsNotARedirect() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Redirect.of(200, "/x", false, null))
                .withMessage("status: 200 (expected: 301, 302, 303, 307 or 308)");
    }
}
