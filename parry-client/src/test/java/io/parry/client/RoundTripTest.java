package io.parry.client;

import static io.parry.client.Calls.await;
import static io.parry.client.Calls.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.MediaType;
import io.parry.server.RequestContext;
import io.parry.testing.ServerExtension;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class RoundTripTest {
    @RegisterExtension
    static final ServerExtension server = ServerExtension.of(RoundTripTest::handle);

    private static HttpClient client;

    @BeforeAll
    static void startClient() {
        client = HttpClient.builder()
                .options(ClientOptions.builder().eventLoopThreads(1).build())
                .build();
    }

    @AfterAll
    static void closeClient() {
        client.close();
    }

    private static CompletionStage<HttpResponse> handle(RequestContext ctx, HttpRequest request) {
        switch (request.path()) {
            case "/hello":
                return HttpResponse.ofText("hello " + request.queryParam("name").orElse("nobody"))
                        .withHeader("x-one", "1")
                        .toStage();
            case "/echo":
                return HttpResponse.of(HttpStatus.OK, HttpHeaders.of("x-echo", "yes"), request.body())
                        .toStage();
            case "/empty":
                return HttpResponse.of(HttpStatus.NO_CONTENT).toStage();
            case "/host":
                return HttpResponse.ofText(request.authority()).toStage();
            case "/trailers":
                return request.body().aggregate(1 << 20).thenCompose(body -> request.body()
                        .trailers()
                        .thenApply(trailers -> HttpResponse.of(
                                HttpStatus.OK,
                                HttpHeaders.empty(),
                                HttpBody.of(
                                        GeneratedBody.of(body.toStringUtf8(), "|", trailers.get("x-sum")),
                                        CompletableFuture.completedFuture(HttpHeaders.of("x-status", "done"))))));
            default:
                return HttpResponse.of(HttpStatus.NOT_FOUND).toStage();
        }
    }

    private Endpoint endpoint() {
        return Endpoint.of("127.0.0.1", server.port());
    }

    @Test
    void sendsGetAndReadsTheResponse() {
        HttpResponse response = await(client.send(endpoint(), HttpRequest.of(HttpMethod.GET, "/hello?name=ann")));

        assertThat(response.status()).isEqualTo(HttpStatus.OK);
        assertThat(response.headers().get("x-one")).isEqualTo("1");
        assertThat(response.headers().get("content-type")).isEqualTo(MediaType.PLAIN_TEXT_UTF_8.toString());
        assertThat(response.body().contentLength()).isEqualTo("hello ann".length());
        assertThat(text(response)).isEqualTo("hello ann");
    }

    @Test
    void postsBodyAndReadsItBack() {
        HttpRequest post = HttpRequest.builder(HttpMethod.POST, "/echo")
                .body(HttpBody.ofUtf8("ping"))
                .build();

        HttpResponse response = await(client.send(endpoint(), post));

        assertThat(response.headers().get("x-echo")).isEqualTo("yes");
        assertThat(text(response)).isEqualTo("ping");
    }

    @Test
    void streamsChunkedBodiesWithTrailersBothWays() {
        HttpRequest post = HttpRequest.builder(HttpMethod.POST, "/trailers")
                .body(HttpBody.of(
                        GeneratedBody.of("one,", "two,", "three"),
                        CompletableFuture.completedFuture(HttpHeaders.of("x-sum", "3"))))
                .build();

        HttpResponse response = await(client.send(endpoint(), post));

        assertThat(response.body().contentLength()).isEqualTo(-1);
        assertThat(text(response)).isEqualTo("one,two,three|3");
        assertThat(await(response.body().trailers()).get("x-status")).isEqualTo("done");
    }

    @Test
    void answersHeadWithHeadersButNoBody() {
        HttpResponse response = await(client.send(endpoint(), HttpRequest.of(HttpMethod.HEAD, "/hello")));

        assertThat(response.status()).isEqualTo(HttpStatus.OK);
        assertThat(response.headers().get("content-length")).isEqualTo("hello nobody".length() + "");
        assertThat(response.body().contentLength()).isZero();
        assertThat(text(response)).isEmpty();
        assertThat(text(await(client.send(endpoint(), HttpRequest.of(HttpMethod.GET, "/hello")))))
                .as("the connection stays usable after a HEAD")
                .isEqualTo("hello nobody");
    }

    @Test
    void answers204WithoutBody() {
        HttpResponse response = await(client.send(endpoint(), HttpRequest.of(HttpMethod.DELETE, "/empty")));

        assertThat(response.status()).isEqualTo(HttpStatus.NO_CONTENT);
        assertThat(text(response)).isEmpty();
    }

    @Test
    void setsHostToTheEndpointUnlessTheRequestHasOne() {
        HttpResponse defaulted = await(client.send(endpoint(), HttpRequest.of(HttpMethod.GET, "/host")));
        HttpResponse kept = await(client.send(
                endpoint(),
                HttpRequest.builder(HttpMethod.GET, "/host")
                        .header("host", "api.example")
                        .build()));

        assertThat(text(defaulted)).isEqualTo("127.0.0.1:" + server.port());
        assertThat(text(kept)).isEqualTo("api.example");
    }

    @Test
    void resolvesLocalhost() {
        HttpResponse response =
                await(client.send(Endpoint.of("localhost", server.port()), HttpRequest.of(HttpMethod.GET, "/hello")));

        assertThat(text(response)).isEqualTo("hello nobody");
    }

    @Test
    void sendsAnAbsoluteTargetToItsAuthorityInOriginForm() {
        HttpRequest request = HttpRequest.of(HttpMethod.GET, "http://localhost:" + server.port() + "/host");

        HttpResponse response = await(client.send(request));

        assertThat(text(response)).isEqualTo("localhost:" + server.port());
    }

    @Test
    void refusesATargetThatIsNotAnAbsoluteHttpUrl() {
        assertThatThrownBy(() -> client.send(HttpRequest.of(HttpMethod.GET, "/relative")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("/relative");
        assertThatThrownBy(() -> client.send(HttpRequest.of(HttpMethod.GET, "ftp://localhost/")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void readsABodyAsHttpDataChunks() {
        HttpResponse response = await(client.send(endpoint(), HttpRequest.of(HttpMethod.GET, "/hello")));

        HttpData whole = await(response.body().aggregate(100));

        assertThat(whole.toStringUtf8()).isEqualTo("hello nobody");
    }
}
