package io.parry.server.cors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import io.parry.server.Handler;
import io.parry.server.StubContext;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CorsFilterTest {
    private static final String APP = "https://app.example";

    private final AtomicInteger calls = new AtomicInteger();
    private HttpResponse handlerResponse = HttpResponse.ofText("todos");

    private final Handler handler = (ctx, request) -> {
        calls.incrementAndGet();
        return handlerResponse.toStage();
    };

    private static final CorsFilter EXPLICIT = CorsFilter.builder()
            .allowOrigins(APP, "http://localhost:3000")
            .allowMethods(HttpMethod.PUT, HttpMethod.DELETE)
            .allowHeaders("Content-Type", "x-trace-id")
            .exposeHeaders("Location", "etag")
            .allowCredentials(true)
            .maxAge(Duration.ofMinutes(10))
            .build();

    private static final CorsFilter PUBLIC =
            CorsFilter.builder().allowAnyOrigin().allowAnyHeader().build();

    @Test
    void passesARequestWithoutOriginToTheHandlerAddingOnlyVaryOrigin() {
        HttpResponse response = run(EXPLICIT, HttpRequest.of(HttpMethod.GET, "/todos"));

        assertThat(calls).hasValue(1);
        assertThat(response.headers().getAll("vary")).containsExactly("Origin");
        assertThat(response.headers().contains("access-control-allow-origin")).isFalse();
    }

    @Test
    void passesARequestWithoutOriginUntouchedWhenAnyOriginIsAllowed() {
        HttpResponse response = run(PUBLIC, HttpRequest.of(HttpMethod.GET, "/todos"));

        assertThat(response).isSameAs(handlerResponse);
    }

    @Test
    void answersAnAllowedOriginWithItselfCredentialsExposedHeadersAndVary() {
        HttpResponse response = run(EXPLICIT, get(APP));

        assertThat(calls).hasValue(1);
        assertThat(response.headers().get("access-control-allow-origin")).isEqualTo(APP);
        assertThat(response.headers().get("access-control-allow-credentials")).isEqualTo("true");
        assertThat(response.headers().get("access-control-expose-headers")).isEqualTo("location, etag");
        assertThat(response.headers().getAll("vary")).containsExactly("Origin");
        assertThat(response.headers().contains("access-control-allow-methods")).isFalse();
    }

    @Test
    void answersAnyOriginWithAStarAndNoVary() {
        HttpResponse response = run(PUBLIC, get("https://anyone.example"));

        assertThat(response.headers().get("access-control-allow-origin")).isEqualTo("*");
        assertThat(response.headers().contains("vary")).isFalse();
        assertThat(response.headers().contains("access-control-allow-credentials"))
                .isFalse();
    }

    @Test
    void passesAnOriginNotAllowedToTheHandlerWithoutCorsFields() {
        HttpResponse response = run(EXPLICIT, get("https://evil.example"));

        assertThat(calls).hasValue(1);
        assertThat(response.status()).isEqualTo(HttpStatus.OK);
        assertThat(response.headers().contains("access-control-allow-origin")).isFalse();
        assertThat(response.headers().contains("access-control-allow-credentials"))
                .isFalse();
        assertThat(response.headers().getAll("vary")).containsExactly("Origin");
    }

    @Test
    void matchesAConfiguredOriginWrittenWithUpperCaseAndDefaultPort() {
        CorsFilter cors =
                CorsFilter.builder().allowOrigins("HTTPS://App.Example:443").build();

        HttpResponse response = run(cors, get(APP));

        assertThat(response.headers().get("access-control-allow-origin")).isEqualTo(APP);
    }

    @Test
    void doesNotMatchAnOriginThatDiffersInPort() {
        HttpResponse response = run(EXPLICIT, get("https://app.example:8443"));

        assertThat(response.headers().contains("access-control-allow-origin")).isFalse();
    }

    @Test
    void answersAPreflightWithoutCallingTheHandler() {
        HttpResponse response = run(EXPLICIT, preflight(APP, "PUT", "content-type,x-trace-id"));

        assertThat(calls).hasValue(0);
        assertThat(response.status()).isEqualTo(HttpStatus.NO_CONTENT);
        assertThat(response.body().contentLength()).isZero();
        assertThat(response.headers().get("access-control-allow-origin")).isEqualTo(APP);
        assertThat(response.headers().get("access-control-allow-credentials")).isEqualTo("true");
        assertThat(response.headers().get("access-control-allow-methods")).isEqualTo("PUT, DELETE, GET, HEAD, POST");
        assertThat(response.headers().get("access-control-allow-headers")).isEqualTo("content-type, x-trace-id");
        assertThat(response.headers().get("access-control-max-age")).isEqualTo("600");
        assertThat(response.headers().get("vary"))
                .isEqualTo("Origin, Access-Control-Request-Method, Access-Control-Request-Headers");
        assertThat(response.headers().contains("access-control-expose-headers")).isFalse();
    }

    @Test
    void comparesRequestedHeaderNamesCaseInsensitivelyAndAnswersThemInLowerCase() {
        HttpResponse response = run(EXPLICIT, preflight(APP, "PUT", " Content-Type , X-Trace-ID "));

        assertThat(response.status()).isEqualTo(HttpStatus.NO_CONTENT);
        assertThat(response.headers().get("access-control-allow-headers")).isEqualTo("content-type, x-trace-id");
    }

    @Test
    void leavesOutAllowHeadersWhenThePreflightAsksForNone() {
        HttpResponse response = run(EXPLICIT, preflight(APP, "DELETE", null));

        assertThat(response.status()).isEqualTo(HttpStatus.NO_CONTENT);
        assertThat(response.headers().contains("access-control-allow-headers")).isFalse();
    }

    @Test
    void refusesAPreflightFromAnOriginNotAllowedWithAProblem() {
        HttpResponse response = run(EXPLICIT, preflight("https://evil.example", "PUT", null));

        assertThat(calls).hasValue(0);
        assertThat(response.status()).isEqualTo(HttpStatus.FORBIDDEN);
        assertThat(response.headers().get("content-type")).isEqualTo("application/problem+json");
        assertThat(response.headers().contains("access-control-allow-origin")).isFalse();
        assertThat(response.headers().get("vary")).startsWith("Origin, ");
        assertThat(body(response))
                .contains("\"status\":403")
                .contains("\"detail\":\"The origin https://evil.example is not allowed.\"")
                .contains("\"instance\":\"/todos\"")
                .contains("\"requestId\":\"test-1\"");
    }

    @Test
    void refusesAPreflightForAMethodNotAllowed() {
        HttpResponse response = run(EXPLICIT, preflight(APP, "PATCH", null));

        assertThat(response.status()).isEqualTo(HttpStatus.FORBIDDEN);
        assertThat(body(response)).contains("The method PATCH is not allowed.");
    }

    @Test
    void comparesMethodsCaseSensitivelyAsFetchDoes() {
        // Fetch upper-cases only DELETE, GET, HEAD, OPTIONS, POST and PUT: {method: "patch"} is sent as is.
        CorsFilter cors = EXPLICIT.toBuilder().allowMethods(HttpMethod.PATCH).build();

        HttpResponse response = run(cors, preflight(APP, "patch", null));

        assertThat(response.status()).isEqualTo(HttpStatus.FORBIDDEN);
    }

    @Test
    void alwaysAllowsTheSafelistedMethods() {
        CorsFilter cors = CorsFilter.builder()
                .allowOrigins(APP)
                .allowHeaders("x-trace-id")
                .build();

        HttpResponse response = run(cors, preflight(APP, "GET", "x-trace-id"));

        assertThat(response.status()).isEqualTo(HttpStatus.NO_CONTENT);
        assertThat(response.headers().get("access-control-allow-methods")).isEqualTo("GET, HEAD, POST");
    }

    @Test
    void answersAPreflightWithTheRequestedMethodWhenAnyMethodIsAllowed() {
        CorsFilter cors = CorsFilter.builder().allowAnyOrigin().allowAnyMethod().build();

        HttpResponse response = run(cors, preflight("https://anyone.example", "PURGE", null));

        assertThat(response.status()).isEqualTo(HttpStatus.NO_CONTENT);
        assertThat(response.headers().get("access-control-allow-origin")).isEqualTo("*");
        assertThat(response.headers().get("access-control-allow-methods")).isEqualTo("PURGE");
    }

    @Test
    void refusesARequestedMethodThatIsNotATokenEvenWhenAnyMethodIsAllowed() {
        CorsFilter cors = CorsFilter.builder().allowAnyOrigin().allowAnyMethod().build();

        HttpResponse response = run(cors, preflight(APP, "GET POST", null));

        assertThat(response.status()).isEqualTo(HttpStatus.FORBIDDEN);
        assertThat(body(response)).contains("The method GET POST is not allowed.");
    }

    @Test
    void refusesAPreflightWhenAnyRequestedHeaderIsNotAllowed() {
        HttpResponse response = run(EXPLICIT, preflight(APP, "PUT", "content-type,x-secret"));

        assertThat(response.status()).isEqualTo(HttpStatus.FORBIDDEN);
        assertThat(body(response)).contains("The header x-secret is not allowed.");
    }

    @Test
    void refusesARequestHeadersListThatIsNotHeaderNames() {
        HttpResponse response = run(EXPLICIT, preflight(APP, "PUT", "content-type, x/y"));

        assertThat(response.status()).isEqualTo(HttpStatus.FORBIDDEN);
    }

    @Test
    void allowsAnyHeaderButAuthorizationAsFetchsWildcardDoes() {
        HttpResponse any = run(PUBLIC, preflight("https://anyone.example", "POST", "x-one,x-two"));
        HttpResponse authorization = run(PUBLIC, preflight("https://anyone.example", "POST", "authorization"));

        assertThat(any.headers().get("access-control-allow-headers")).isEqualTo("x-one, x-two");
        assertThat(authorization.status()).isEqualTo(HttpStatus.FORBIDDEN);
    }

    @Test
    void allowsAuthorizationWithAnyHeaderWhenItIsNamed() {
        CorsFilter cors = PUBLIC.toBuilder().allowHeaders("Authorization").build();

        HttpResponse response = run(cors, preflight("https://anyone.example", "POST", "authorization,x-one"));

        assertThat(response.headers().get("access-control-allow-headers")).isEqualTo("authorization, x-one");
    }

    @Test
    void treatsOptionsWithoutARequestedMethodAsAnOrdinaryRequest() {
        HttpRequest options = HttpRequest.builder(HttpMethod.OPTIONS, "/todos")
                .header("origin", APP)
                .build();

        HttpResponse response = run(EXPLICIT, options);

        assertThat(calls).hasValue(1);
        assertThat(response.headers().get("access-control-allow-origin")).isEqualTo(APP);
    }

    @Test
    void refusesTheNullOriginUnlessAnyOriginIsAllowed() {
        assertThat(run(EXPLICIT, preflight("null", "PUT", null)).status()).isEqualTo(HttpStatus.FORBIDDEN);
        assertThat(run(EXPLICIT, get("null")).headers().contains("access-control-allow-origin"))
                .isFalse();
        assertThat(run(PUBLIC, get("null")).headers().get("access-control-allow-origin"))
                .isEqualTo("*");
    }

    @Test
    void keepsTheHandlersVaryAndAddsOrigin() {
        handlerResponse = HttpResponse.ofText("todos").withHeader("vary", "Accept-Encoding");

        HttpResponse response = run(EXPLICIT, get(APP));

        assertThat(response.headers().getAll("vary")).containsExactly("Accept-Encoding", "Origin");
    }

    @Test
    void doesNotRepeatOriginOrChangeVaryStar() {
        handlerResponse = HttpResponse.ofText("todos").withHeader("vary", "accept, origin");
        assertThat(run(EXPLICIT, get(APP)).headers().getAll("vary")).containsExactly("accept, origin");

        handlerResponse = HttpResponse.ofText("todos").withHeader("vary", "*");
        assertThat(run(EXPLICIT, get(APP)).headers().getAll("vary")).containsExactly("*");
        assertThat(run(EXPLICIT, HttpRequest.of(HttpMethod.GET, "/")).headers().getAll("vary"))
                .containsExactly("*");
    }

    @Test
    void replacesAllowOriginSetByTheHandlerAndAddsToItsExposedHeaders() {
        handlerResponse = HttpResponse.builder(HttpStatus.OK)
                .header("access-control-allow-origin", "*")
                .header("access-control-expose-headers", "x-total-count")
                .build();

        HttpResponse response = run(EXPLICIT, get(APP));

        assertThat(response.headers().getAll("access-control-allow-origin")).containsExactly(APP);
        assertThat(response.headers().getAll("access-control-expose-headers"))
                .containsExactly("x-total-count", "location, etag");
    }

    @Test
    void sendsMaxAgeInWholeSeconds() {
        CorsFilter cors = CorsFilter.builder()
                .allowAnyOrigin()
                .maxAge(Duration.ofMillis(1999))
                .build();

        assertThat(run(cors, preflight(APP, "GET", null)).headers().get("access-control-max-age"))
                .isEqualTo("1");
    }

    @Test
    void passesAFailureOfTheHandlerThrough() {
        Handler failing = (ctx, request) -> {
            throw new HttpStatusException(HttpStatus.NOT_FOUND, "No todo 42.");
        };

        assertThatThrownBy(() -> failing.with(EXPLICIT).handle(new StubContext(), get(APP)))
                .isInstanceOf(HttpStatusException.class)
                .hasMessage("No todo 42.");
    }

    @Test
    void passesAFailedStageThrough() {
        Handler failing = (ctx, request) ->
                CompletableFuture.failedFuture(new HttpStatusException(HttpStatus.CONFLICT, "changed"));

        assertThatThrownBy(() -> failing.with(EXPLICIT)
                        .handle(new StubContext(), get(APP))
                        .toCompletableFuture()
                        .join())
                .isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(HttpStatusException.class);
    }

    private HttpResponse run(CorsFilter cors, HttpRequest request) {
        try {
            return handler.with(cors)
                    .handle(new StubContext(), request)
                    .toCompletableFuture()
                    .join();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static HttpRequest get(String origin) {
        return HttpRequest.builder(HttpMethod.GET, "/todos")
                .header("origin", origin)
                .build();
    }

    private static HttpRequest preflight(String origin, String method, String headers) {
        HttpRequest.Builder builder = HttpRequest.builder(HttpMethod.OPTIONS, "/todos")
                .header("origin", origin)
                .header("access-control-request-method", method);
        if (headers != null) {
            builder.header("access-control-request-headers", headers);
        }
        return builder.build();
    }

    private static String body(HttpResponse response) {
        return response.body().aggregate(4096).toCompletableFuture().join().toStringUtf8();
    }
}
