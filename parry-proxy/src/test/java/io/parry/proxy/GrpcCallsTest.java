package io.parry.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.ClientTimeouts;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class GrpcCallsTest {
    @ParameterizedTest
    @CsvSource({
        "1H,PT1H",
        "2M,PT2M",
        "3S,PT3S",
        "250m,PT0.25S",
        "1500u,PT0.0015S",
        "7n,PT0.000000007S",
        "0m,PT0.000000001S"
    })
    void readsGrpcTimeoutUnits(String value, Duration expected) {
        assertThat(GrpcCalls.deadline(value)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "m", "10", "10x", "-1S", "123456789S", "1.5S"})
    void ignoresMalformedGrpcTimeouts(String value) {
        assertThat(GrpcCalls.deadline(value)).isNull();
    }

    @Test
    void takesTheShorterOfWhatIsLeftOfTheDeadlineAndTheConfiguredCallTimeout() {
        ClientTimeouts configured =
                ClientTimeouts.builder().call(Duration.ofSeconds(5)).build();

        assertThat(GrpcDeadline.timeouts(configured, Duration.ofMillis(100).toNanos())
                        .call())
                .isEqualTo(Duration.ofMillis(100));
        assertThat(GrpcDeadline.timeouts(configured, Duration.ofSeconds(10).toNanos()))
                .isSameAs(configured);
        assertThat(GrpcDeadline.timeouts(
                                ClientTimeouts.ofDefault(),
                                Duration.ofSeconds(10).toNanos())
                        .call())
                .isEqualTo(Duration.ofSeconds(10));
    }

    @ParameterizedTest
    @CsvSource({
        "1,1n",
        "99999999,99999999n",
        "100000000,100000u",
        "1700000000,1700000u",
        "123456789012,123456m",
        "3600000000000000,3600000S",
        "360000000000000000,6000000M"
    })
    void writesWhatIsLeftInAtMostEightDigitsRoundedDown(long nanos, String value) {
        assertThat(GrpcDeadline.timeoutValue(nanos)).isEqualTo(value);
        assertThat(GrpcCalls.deadline(value).toNanos()).isLessThanOrEqualTo(nanos);
    }

    @Test
    void recognisesGrpcContentTypes() {
        assertThat(GrpcCalls.isGrpc(grpc(null))).isTrue();
        assertThat(GrpcCalls.isGrpc(request("application/grpc+proto"))).isTrue();
        assertThat(GrpcCalls.isGrpc(request("Application/GRPC-web"))).isTrue();
        assertThat(GrpcCalls.isGrpc(request("application/json"))).isFalse();
        assertThat(GrpcCalls.isGrpc(HttpRequest.of(HttpMethod.POST, "/"))).isFalse();
    }

    @Test
    void answersProxyFailuresWithTrailersOnlyStatuses() {
        HttpResponse unavailable =
                GrpcCalls.status(new HttpStatusException(HttpStatus.SERVICE_UNAVAILABLE, "Upstream a is unavailable."));
        HttpResponse late = GrpcCalls.status(new HttpStatusException(HttpStatus.GATEWAY_TIMEOUT, "late"));

        assertThat(unavailable.status().code()).isEqualTo(200);
        assertThat(unavailable.headers())
                .isEqualTo(HttpHeaders.of(
                        "content-type", "application/grpc",
                        "grpc-status", "14",
                        "grpc-message", "Upstream a is unavailable."));
        assertThat(unavailable.body().contentLength()).isZero();
        assertThat(late.headers().get("grpc-status")).isEqualTo("4");
        assertThat(GrpcCalls.status(new IllegalStateException("bug")).headers().get("grpc-status"))
                .isEqualTo("13");
    }

    @Test
    void percentEncodesTheMessage() {
        assertThat(GrpcCalls.status(14, "100% down\nnow ü").headers().get("grpc-message"))
                .isEqualTo("100%25 down%0Anow %C3%BC");
    }

    @Test
    void keepsAnUpstreamResponseThatCarriesAGrpcStatus() {
        HttpResponse withStatus =
                HttpResponse.of(HttpStatus.SERVICE_UNAVAILABLE).withHeader("grpc-status", "14");
        HttpResponse ok = HttpResponse.of(HttpStatus.OK);

        HttpResponse kept = GrpcCalls.ofUpstream(withStatus);

        assertThat(kept.status()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
        assertThat(kept.headers().get("grpc-status")).isEqualTo("14");
        assertThat(kept.body().contentLength()).isZero();
        assertThat(GrpcCalls.ofUpstream(ok)).isSameAs(ok);
        assertThat(GrpcCalls.ofUpstream(HttpResponse.of(HttpStatus.NOT_FOUND))
                        .headers()
                        .get("grpc-status"))
                .isEqualTo("12");
    }

    private static HttpRequest grpc(String timeout) {
        HttpRequest request = request("application/grpc");
        return timeout == null ? request : request.withHeaders(request.headers().with("grpc-timeout", timeout));
    }

    private static HttpRequest request(String type) {
        return HttpRequest.of(HttpMethod.POST, "/svc/Method").withHeaders(HttpHeaders.of("content-type", type));
    }
}
