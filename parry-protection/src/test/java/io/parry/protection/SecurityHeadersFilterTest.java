package io.parry.protection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.testing.HandlerTester;
import io.parry.testing.TestResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SecurityHeadersFilterTest {

    @Test
    void addsTheDefaultFieldsWithoutHsts() {
        try (HandlerTester tester = HandlerTester.of(
                Handler.sync((ctx, request) -> HttpResponse.ofText("hi")).with(SecurityHeadersFilter.ofDefault()))) {
            TestResponse response = tester.get("/");

            assertThat(response.header("x-content-type-options")).isEqualTo("nosniff");
            assertThat(response.header("x-frame-options")).isEqualTo("DENY");
            assertThat(response.header("referrer-policy")).isEqualTo("no-referrer");
            assertThat(response.header("strict-transport-security")).isNull();
        }
    }

    @Test
    void keepsFieldsTheHandlerSetAndAddsHsts() {
        SecurityHeadersFilter filter = SecurityHeadersFilter.builder()
                .hsts(Duration.ofDays(365), true)
                .frameOptions("SAMEORIGIN")
                .build();
        Handler handler =
                Handler.sync((ctx, request) -> HttpResponse.ofText("hi").withHeader("X-Frame-Options", "DENY"));
        try (HandlerTester tester = HandlerTester.of(handler.with(filter))) {
            TestResponse response = tester.get("/");

            assertThat(response.headers("x-frame-options")).containsExactly("DENY");
            assertThat(response.header("strict-transport-security")).isEqualTo("max-age=31536000; includeSubDomains");
        }
    }

    @Test
    void refusesUnknownValues() {
        assertThatThrownBy(() -> SecurityHeadersFilter.builder()
                        .frameOptions("ALLOW-FROM x")
                        .build())
                .hasMessage("frameOptions: ALLOW-FROM x (expected: DENY, SAMEORIGIN or empty)");
        assertThatThrownBy(() ->
                        SecurityHeadersFilter.builder().referrerPolicy("never").build())
                .hasMessageStartingWith("referrerPolicy: never (expected: one of");
    }
}
