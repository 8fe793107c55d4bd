package io.parry.it.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import io.parry.server.ErrorHandler;
import io.parry.server.Filter;
import io.parry.server.Handler;
import io.parry.server.Server;
import io.parry.server.routing.Router;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Groups, filters, mounting and the error handler chain, through a real server. */
class RoutingCompositionTest {
    private static final Filter AUTH = (next, ctx, request) -> {
        if (!"secret".equals(request.headers().get("x-token"))) {
            throw new HttpStatusException(HttpStatus.UNAUTHORIZED, "A token is required.");
        }
        return next.handle(ctx, request);
    };
    private static final Filter TAG =
            (next, ctx, request) -> next.handle(ctx, request).thenApply(r -> r.withHeader("x-router", "outer"));

    private static final Router INNER =
            Router.builder().get("/items/{item}", text(ctx -> "item " + ctx)).build();

    private static final Router ROUTER = Router.builder()
            .filter(TAG)
            .get("/public", text(ctx -> "public"))
            .group("/admin", admin -> admin.filter(AUTH).get("/stats", text(ctx -> "stats")))
            .mount("/shops/{shop}", INNER)
            .get("/fail/route", fail("route"), route -> route.errorHandler(answering("route", "route")))
            .get("/fail/router", fail("router"), route -> route.errorHandler(answering("route", "route")))
            .get("/fail/server", fail("server"))
            .errorHandler(answering("route", "router").orElse(answering("router", "router")))
            .build();

    private final Server server = Server.builder()
            .host("127.0.0.1")
            .port(0)
            .handler(ROUTER)
            .errorHandler((ctx, request, cause) -> cause instanceof IllegalStateException
                    ? HttpResponse.ofText("server handled " + cause.getMessage())
                    : null)
            .build()
            .start();

    @AfterEach
    void stop() {
        server.stop(Duration.ofSeconds(1));
    }

    @Test
    void appliesAGroupFilterToTheGroupsRoutesOnly() {
        assertThat(get("/public", "").status()).isEqualTo(200);
        assertThat(get("/admin/stats", "").status()).isEqualTo(401);
        assertThat(get("/admin/stats", "X-Token: secret\n").bodyText()).isEqualTo("stats");
    }

    @Test
    void appliesARouterFilterToItsOwnAnswersToo() {
        assertThat(get("/public", "").header("x-router")).isEqualTo("outer");
        assertThat(get("/nowhere", "").header("x-router")).isEqualTo("outer");
    }

    @Test
    void mountsARouterWithTheOuterParametersKept() {
        RawResponse response = get("/shops/corner/items/tea", "");

        assertThat(response.bodyText()).isEqualTo("item {shop=corner, item=tea}");
        assertThat(get("/shops/corner/other", "").status()).isEqualTo(404);
    }

    @Test
    void asksTheRoutesErrorHandlerThenTheRoutersThenTheServers() {
        assertThat(get("/fail/route", "").bodyText()).isEqualTo("route handled route");
        assertThat(get("/fail/router", "").bodyText()).isEqualTo("router handled router");
        assertThat(get("/fail/server", "").bodyText()).isEqualTo("server handled server");
    }

    private static Handler text(Function<Map<String, String>, String> body) {
        return (ctx, request) ->
                HttpResponse.ofText(body.apply(ctx.pathParams())).toStage();
    }

    private static Handler fail(String message) {
        return (ctx, request) -> {
            throw new IllegalStateException(message);
        };
    }

    /** Answers failures with this message as "{who} handled {message}", leaving the rest. */
    private static ErrorHandler answering(String message, String who) {
        return (ctx, request, cause) ->
                message.equals(cause.getMessage()) ? HttpResponse.ofText(who + " handled " + message) : null;
    }

    private RawResponse get(String path, String headers) {
        try (RawConnection connection = RawConnection.open("127.0.0.1", server.port())) {
            connection.send("GET " + path + " HTTP/1.1\nHost: a\n" + headers + "\n");
            return connection.readResponse();
        }
    }
}
