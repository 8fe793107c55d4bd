package io.parry.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.ClientOptions;
import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import io.parry.server.routing.Router;
import io.parry.testing.ServerExtension;
import java.net.ServerSocket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.MDC;

/**
 * The stages an application chains on a Parry client's call, made while handling a request, see that
 * request's ids in the MDC, although the client completes them on an event loop reading a response.
 */
class ClientMdcTest {
    private static HttpClient client;
    private static int closedPort;

    /** Holds back the answer to {@code /held} until the test has chained its stage. */
    private static final CompletableFuture<Void> held = new CompletableFuture<>();

    @RegisterExtension
    static final ServerExtension upstream =
            ServerExtension.of((ctx, request) -> request.path().equals("/held")
                    ? held.thenApply(nothing -> HttpResponse.ofText("held body"))
                    : HttpResponse.ofText("upstream body").toStage());

    @RegisterExtension
    static final ServerExtension server = ServerExtension.of(Router.builder()
            .get("/head", (ctx, request) -> call().thenApply(response -> answer(ctx, response)))
            .get("/body", (ctx, request) -> call().thenCompose(response -> response.body()
                    .aggregate(1024)
                    .thenApply(data -> HttpResponse.ofText(expected(ctx) + "|" + mdc()))))
            .get("/failure", (ctx, request) -> client.send(Endpoint.of("127.0.0.1", closedPort), get())
                    .handle((response, failure) -> HttpResponse.ofText(expected(ctx) + "|" + mdc())))
            .get("/worker", Handler.blocking((ctx, request) -> {
                // Off the event loop, the client uses its own loop, which must be left clean after.
                return call().thenApply(response -> answer(ctx, response))
                        .toCompletableFuture()
                        .get(5, TimeUnit.SECONDS);
            }))
            .build());

    @BeforeAll
    static void startTheClient() throws Exception {
        client = HttpClient.builder()
                .options(ClientOptions.builder().eventLoopThreads(1).build())
                .build();
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
    }

    @AfterAll
    static void closeTheClient() {
        client.close();
    }

    @Test
    void aStageChainedOnTheResponseHeadSeesTheRequestsIds() throws Exception {
        assertSeesItsOwnIds(get("/head"));
    }

    @Test
    void aStageChainedOnTheResponseBodySeesTheRequestsIds() throws Exception {
        assertSeesItsOwnIds(get("/body"));
    }

    @Test
    void aStageChainedOnAFailedCallSeesTheRequestsIds() throws Exception {
        assertSeesItsOwnIds(get("/failure"));
    }

    @Test
    void theClientsOwnLoopKeepsNoRequestsIdsAfterTheStage() throws Exception {
        assertSeesItsOwnIds(get("/worker"));

        CompletableFuture<String> outside = client.send(
                        Endpoint.of("127.0.0.1", upstream.port()), HttpRequest.of(HttpMethod.GET, "/held"))
                .thenApply(response -> {
                    response.body().aggregate(1024);
                    return Thread.currentThread().getName() + " " + mdc();
                })
                .toCompletableFuture();
        held.complete(null);

        assertThat(outside.get(5, TimeUnit.SECONDS)).startsWith("parry-client").endsWith(" null null null");
    }

    private static void assertSeesItsOwnIds(String body) {
        String[] parts = body.split("\\|");
        assertThat(parts[0]).doesNotContain("null");
        assertThat(parts).hasSize(2);
        assertThat(parts[1]).isEqualTo(parts[0]);
    }

    private static CompletionStage<HttpResponse> call() {
        return client.send(Endpoint.of("127.0.0.1", upstream.port()), get());
    }

    private static HttpRequest get() {
        return HttpRequest.of(HttpMethod.GET, "/");
    }

    private static HttpResponse answer(RequestContext ctx, HttpResponse upstreamResponse) {
        String seen = mdc();
        upstreamResponse.body().aggregate(1024);
        return HttpResponse.ofText(expected(ctx) + "|" + seen);
    }

    private static String expected(RequestContext ctx) {
        return ctx.traceContext().traceId() + " " + ctx.traceContext().spanId() + " " + ctx.requestId();
    }

    private static String mdc() {
        return MDC.get("traceId") + " " + MDC.get("spanId") + " " + MDC.get("requestId");
    }

    private static String get(String path) throws Exception {
        var response = server.client()
                .send(
                        java.net.http.HttpRequest.newBuilder(server.uri(path)).build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return response.body();
    }
}
