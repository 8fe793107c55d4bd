package io.parry.it.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpData;
import io.parry.http.HttpResponse;
import io.parry.http.MediaType;
import io.parry.server.routing.RequestParams;
import io.parry.server.routing.Router;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import io.parry.testing.ServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Every answer the router gives on its own, over a real socket. */
class RoutingStatusTest {
    private static final Router ROUTER = Router.builder()
            .get("/todos", (ctx, request) -> HttpResponse.ofText("all todos").toStage())
            .post(
                    "/todos",
                    (ctx, request) -> HttpResponse.of(MediaType.JSON, HttpData.ofUtf8("{}"))
                            .toStage(),
                    route -> route.consumes(MediaType.JSON).produces(MediaType.JSON))
            .get("/todos/{id}", (ctx, request) -> {
                RequestParams params = RequestParams.of(ctx, request);
                long id = params.pathLong("id");
                int limit = params.queryInt("limit", 20);
                return HttpResponse.ofText("todo " + id + " limit " + limit).toStage();
            })
            .build();

    @RegisterExtension
    static final ServerExtension server = ServerExtension.of(ROUTER);

    @Test
    void answers404AsAProblemWhenNoPatternMatches() {
        RawResponse response = send("GET /nothing HTTP/1.1\nHost: a\n\n");

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.header("content-type")).isEqualTo("application/problem+json");
        assertThat(response.bodyText()).contains("\"instance\":\"/nothing\"", "\"requestId\"");
    }

    @Test
    void answers405WithAllowWhenOnlyTheMethodIsWrong() {
        RawResponse response = send("DELETE /todos HTTP/1.1\nHost: a\n\n");

        assertThat(response.status()).isEqualTo(405);
        assertThat(response.header("allow")).isEqualTo("GET, HEAD, POST, OPTIONS");
        assertThat(response.bodyText()).contains("DELETE is not allowed here");
    }

    @Test
    void answers415ForAContentTypeNoRouteConsumes() {
        RawResponse response = send("POST /todos HTTP/1.1\nHost: a\nContent-Type: text/plain\nContent-Length: 2\n\nhi");

        assertThat(response.status()).isEqualTo(415);
        assertThat(response.bodyText()).contains("supported: application/json");
    }

    @Test
    void answers406WhenAcceptAllowsNothingTheRouteProduces() {
        RawResponse response = send("POST /todos HTTP/1.1\nHost: a\nContent-Type: application/json\n"
                + "Accept: text/html, application/json;q=0\nContent-Length: 2\n\n{}");

        assertThat(response.status()).isEqualTo(406);
        assertThat(response.bodyText()).contains("available: application/json");
    }

    @Test
    void servesARequestThatMeetsEveryCondition() {
        RawResponse response = send("POST /todos HTTP/1.1\nHost: a\nContent-Type: application/json\n"
                + "Accept: application/*;q=0.8\nContent-Length: 2\n\n{}");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.bodyText()).isEqualTo("{}");
    }

    @Test
    void negotiatesOverAcceptFieldsSentOnSeveralLines() {
        RawResponse response = send("POST /todos HTTP/1.1\nHost: a\nContent-Type: application/json\n"
                + "Accept: text/html\nAccept: application/json\nContent-Length: 2\n\n{}");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.bodyText()).isEqualTo("{}");
    }

    @Test
    void answers400NamingABadTypedParameter() {
        RawResponse badPath = send("GET /todos/abc HTTP/1.1\nHost: a\n\n");
        RawResponse badQuery = send("GET /todos/7?limit=lots HTTP/1.1\nHost: a\n\n");

        assertThat(badPath.status()).isEqualTo(400);
        assertThat(badPath.bodyText()).contains("Path parameter 'id' must be an integer.");
        assertThat(badQuery.status()).isEqualTo(400);
        assertThat(badQuery.bodyText()).contains("Query parameter 'limit' must be an integer.");
        assertThat(send("GET /todos/7?limit=3 HTTP/1.1\nHost: a\n\n").bodyText())
                .isEqualTo("todo 7 limit 3");
    }

    @Test
    void answersOptionsWithTheMethodsOfThePath() {
        RawResponse response = send("OPTIONS /todos/7 HTTP/1.1\nHost: a\n\n");

        assertThat(response.status()).isEqualTo(204);
        assertThat(response.header("allow")).isEqualTo("GET, HEAD, OPTIONS");
    }

    @Test
    void servesHeadWithTheGetRouteAndNoBody() {
        try (RawConnection connection = server.connect()) {
            connection.send("HEAD /todos HTTP/1.1\nHost: a\n\n");
            RawResponse head = connection.readResponseHead();
            connection.send("GET /todos HTTP/1.1\nHost: a\n\n");
            RawResponse get = connection.readResponse();

            assertThat(head.status()).isEqualTo(200);
            assertThat(head.header("content-length")).isEqualTo("9");
            assertThat(get.status()).isEqualTo(200);
            assertThat(get.bodyText()).isEqualTo("all todos");
        }
    }

    private static RawResponse send(String request) {
        try (RawConnection connection = server.connect()) {
            connection.send(request);
            return connection.readResponse();
        }
    }
}
