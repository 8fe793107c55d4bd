package io.parry.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import org.junit.jupiter.api.Test;

class HandlerTest {
    private final RequestContext ctx = new StubContext();
    private final HttpRequest request = HttpRequest.of(HttpMethod.GET, "/hello");

    @Test
    void syncHandlerAnswersWithACompletedStage() throws Exception {
        Handler handler = Handler.sync((ctx, request) -> HttpResponse.ofText("Hello, " + request.path()));

        HttpResponse response =
                handler.handle(ctx, request).toCompletableFuture().getNow(null);

        assertThat(response).isNotNull();
        assertThat(response.status()).isEqualTo(HttpStatus.OK);
        assertThat(response.body().contentLength()).isEqualTo("Hello, /hello".length());
    }

    @Test
    void syncHandlerThrowsWhatTheCodeThrowsSoTheServerAnswersWithItsProblem() {
        Handler handler = Handler.sync((ctx, request) -> {
            throw new HttpStatusException(HttpStatus.CONFLICT, "taken");
        });

        assertThatThrownBy(() -> handler.handle(ctx, request)).isInstanceOf(HttpStatusException.class);
    }

    @Test
    void syncHandlerThatReturnsNoResponseFailsInsteadOfHanging() {
        Handler handler = Handler.sync((ctx, request) -> null);

        assertThatThrownBy(() -> handler.handle(ctx, request))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("no response");
    }

    @Test
    void syncHandlerComposesWithFilters() throws Exception {
        Filter tag = (next, ctx, request) ->
                next.handle(ctx, request).thenApply(response -> response.withHeader("x-tag", "1"));

        HttpResponse response = Handler.sync((ctx, request) -> HttpResponse.ofText("ok"))
                .with(tag)
                .handle(ctx, request)
                .toCompletableFuture()
                .getNow(null);

        assertThat(response.headers().get("x-tag")).isEqualTo("1");
    }
}
