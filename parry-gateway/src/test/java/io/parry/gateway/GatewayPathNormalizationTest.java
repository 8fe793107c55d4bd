package io.parry.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpResponse;
import io.parry.server.PathNormalization;
import io.parry.server.PathNormalization.EscapedSlashAction;
import io.parry.server.PathNormalization.PathParameterAction;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import io.parry.testing.ServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A deny rule on {@code /a/internal} in front of a proxy route on {@code /a} holds for every spelling of
 * the path, through a real gateway to a real upstream that records each target it receives: the
 * listener refuses or normalises the path before routing, and the upstream gets exactly the path
 * that was matched.
 */
class GatewayPathNormalizationTest {
    private static final Queue<String> received = new ConcurrentLinkedQueue<>();

    /** Keeps what it is sent, so the record is the spelling on the wire. */
    @RegisterExtension
    static final ServerExtension upstream = ServerExtension.of(
            (ctx, request) -> {
                received.add(request.target());
                return HttpResponse.ofText("upstream got " + request.target()).toStage();
            },
            options -> options.pathNormalization(PathNormalization.builder()
                    .escapedSlashes(EscapedSlashAction.KEEP_UNCHANGED)
                    .pathParameters(PathParameterAction.KEEP_UNCHANGED)
                    .build()));

    private static final String ROUTES =
            """
            admin: { host: 127.0.0.1, port: 0 }
            upstreams:
              app: { endpoints: ["127.0.0.1:${APP_PORT}"] }
            routes:
              - name: deny
                match: { prefix: /a/internal }
                respond: { status: 403, body: denied }
              - name: app
                match: { prefix: /a }
                proxy: { upstream: app }
            """;

    @TempDir
    static Path dir;

    private static TestGateway strict;
    private static TestGateway lenient;

    @BeforeAll
    static void startGateways() throws Exception {
        Map<String, String> env = Map.of("APP_PORT", Integer.toString(upstream.port()));
        strict = TestGateway.start(
                Files.createDirectory(dir.resolve("strict")), "listener: { host: 127.0.0.1, port: 0 }\n" + ROUTES, env);
        lenient = TestGateway.start(
                Files.createDirectory(dir.resolve("lenient")),
                """
                listener:
                  host: 127.0.0.1
                  port: 0
                  pathNormalization: { escapedSlashes: unescape_and_forward, pathParameters: strip }
                """
                        + ROUTES,
                env);
    }

    @AfterAll
    static void stopGateways() {
        strict.close();
        lenient.close();
    }

    @BeforeEach
    void forgetWhatTheUpstreamReceived() {
        received.clear();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "/a/internal;x=1/y",
                "/a/internal;x=1",
                "/a/internal%2Fy",
                "/a/internal%2fy",
                "/a/internal%5Cy",
                "/a/internal%5cy",
                "/a/x/..;/internal",
                "/a/x;/../internal",
                "/a/x/%2e%2e;/internal",
                "/a/x%2F..%2Finternal",
                "/a/internal/..%2F..",
                "/a/internal/y/..%2F..%2F..%2Fa/internal",
                "/../a/internal",
                "/a/%C0%AFinternal",
                "/a/internal%00",
                "/a/intern%zzal"
            })
    void defaultListenerRefusesEverySpellingThatCouldChangeTheRoute(String path) {
        RawResponse response = get(strict, path);

        assertThat(response.status()).isEqualTo(400);
        assertThat(received).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "/a/internal",
                "/a/internal/y",
                "/a/./internal",
                "/a/%2e%2e/a/internal",
                "/a/x/%2E%2e/internal",
                "/a/x/.%2E/internal/y",
                "/a//internal",
                "/a/%69nternal",
                "/a/%69%6E%74%65%72%6E%61%6C/y",
                "http://127.0.0.1/a/b/../internal"
            })
    void defaultListenerDeniesEverySpellingItNormalises(String path) {
        RawResponse response = get(strict, path);

        assertThat(response.status()).isEqualTo(403);
        assertThat(received).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "/a/internal;x=1/y",
                "/a/internal;x=1",
                "/a/internal%2Fy",
                "/a/internal%2fy",
                "/a/internal%5Cy",
                "/a/internal%5cy",
                "/a/x/..;/internal",
                "/a/x;/../internal",
                "/a/x/%2e%2e;/internal",
                "/a/x%2F..%2Finternal",
                "/a/internal/y/..%2F..%2F..%2Fa/internal",
                "/a//internal;jsessionid=1",
                "/a/%69nternal;x"
            })
    void listenerThatStripsAndUnescapesDeniesEverySpelling(String path) {
        RawResponse response = get(lenient, path);

        assertThat(response.status()).isEqualTo(403);
        assertThat(received).isEmpty();
    }

    @Test
    void upstreamGetsExactlyThePathThatWasMatchedAndTheQueryAsSent() {
        List<String> answers = new ArrayList<>();
        answers.add(get(strict, "/a/%7Epublic/./x/../y%2a?q=%2F..;&r=//").bodyText());
        answers.add(get(strict, "http://127.0.0.1/a//b?c").bodyText());
        answers.add(get(lenient, "/a/public;jsessionid=1/x%2Fy/%2E?q=1").bodyText());

        assertThat(received).containsExactly("/a/~public/y%2A?q=%2F..;&r=//", "/a/b?c", "/a/public/x/y/?q=1");
        assertThat(answers)
                .containsExactly(
                        "upstream got /a/~public/y%2A?q=%2F..;&r=//",
                        "upstream got /a/b?c", "upstream got /a/public/x/y/?q=1");
    }

    private static RawResponse get(TestGateway gateway, String target) {
        try (RawConnection connection =
                RawConnection.open("127.0.0.1", gateway.gateway().port())) {
            connection.send("GET " + target + " HTTP/1.1\nHost: gateway\n\n");
            return connection.readResponse();
        }
    }
}
