package io.parry.server.routing;

import static io.parry.server.routing.Calls.body;
import static io.parry.server.routing.Calls.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatusException;
import io.parry.server.Handler;
import io.parry.server.StubContext;
import org.junit.jupiter.api.Test;

class RequestParamsTest {
    private final HttpRequest request = HttpRequest.builder(HttpMethod.GET, "/?limit=5&q=a+b&bad=x&flag=TRUE")
            .header("x-tenant", "acme")
            .header("cookie", "theme=dark; session=\"s3cr3t\"")
            .build();
    private final RequestParams params = RequestParams.of(new StubContext(), request);

    @Test
    void readsTypedQueryHeaderAndCookieValues() {
        assertThat(params.queryInt("limit", 20)).isEqualTo(5);
        assertThat(params.queryInt("offset", 20)).isEqualTo(20);
        assertThat(params.query("q")).isEqualTo("a b");
        assertThat(params.queryBoolean("flag", false)).isTrue();
        assertThat(params.header("x-tenant")).isEqualTo("acme");
        assertThat(params.cookie("session")).isEqualTo("s3cr3t");
        assertThat(params.cookie("missing", "none")).isEqualTo("none");
    }

    @Test
    void failsWith400NamingABadValueWithoutEchoingIt() {
        assertThatThrownBy(() -> params.queryLong("bad"))
                .isInstanceOfSatisfying(
                        HttpStatusException.class,
                        e -> assertThat(e.status().code()).isEqualTo(400))
                .hasMessage("Query parameter 'bad' must be an integer.");
    }

    @Test
    void failsWith400NamingAMissingRequiredParameter() {
        assertThatThrownBy(() -> params.header("x-missing")).hasMessage("Header 'x-missing' is required.");
        assertThatThrownBy(() -> params.cookie("user")).hasMessage("Cookie 'user' is required.");
        assertThatThrownBy(() -> params.queryInt("page")).hasMessage("Query parameter 'page' is required.");
    }

    @Test
    void readsTypedPathParametersThroughARouter() {
        Handler show = (ctx, request) -> {
            RequestParams p = RequestParams.of(ctx, request);
            return HttpResponse.ofText(p.pathLong("id") + 1 + " " + p.pathUuid("key"))
                    .toStage();
        };
        Router router = Router.builder().get("/things/{id}/{key}", show).build();

        assertThat(body(call(router, "GET", "/things/41/123e4567-e89b-12d3-a456-426614174000")))
                .isEqualTo("42 123e4567-e89b-12d3-a456-426614174000");
        assertThatThrownBy(() -> call(router, "GET", "/things/x/123e4567-e89b-12d3-a456-426614174000"))
                .hasRootCauseInstanceOf(NumberFormatException.class)
                .hasMessageContaining("Path parameter 'id' must be an integer.");
    }
}
