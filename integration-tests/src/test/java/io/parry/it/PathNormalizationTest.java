package io.parry.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.server.Handler;
import io.parry.server.PathNormalization;
import io.parry.server.PathNormalization.EscapedSlashAction;
import io.parry.server.PathNormalization.PathParameterAction;
import io.parry.server.Rejection;
import io.parry.server.routing.Router;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import io.parry.testing.ServerExtension;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A rule on {@code /a/internal} holds for every spelling of that path: the listener rejects or
 * normalises the path before the router sees it, and the handler sees the spelling that was routed.
 */
class PathNormalizationTest {
    private static final AtomicInteger denied = new AtomicInteger();

    @RegisterExtension
    static final ServerExtension strict = ServerExtension.of(router());

    @RegisterExtension
    static final ServerExtension lenient = ServerExtension.of(
            router(),
            options -> options.pathNormalization(PathNormalization.builder()
                    .escapedSlashes(EscapedSlashAction.UNESCAPE_AND_FORWARD)
                    .pathParameters(PathParameterAction.STRIP)
                    .build()));

    @RegisterExtension
    static final ServerExtension redirecting = ServerExtension.of(
            router(),
            options -> options.pathNormalization(PathNormalization.builder()
                    .escapedSlashes(EscapedSlashAction.UNESCAPE_AND_REDIRECT)
                    .build()));

    /** {@code /a/internal} and below is denied; anything else under {@code /a} says what it was given. */
    private static Router router() {
        Handler deny = (ctx, request) -> {
            denied.incrementAndGet();
            return HttpResponse.of(HttpStatus.FORBIDDEN).toStage();
        };
        return Router.builder()
                .get("/a/internal", deny)
                .get("/a/internal/{*rest}", deny)
                .get("/a/{*rest}", (ctx, request) -> HttpResponse.ofText(
                                "path=" + request.path() + " target=" + request.target())
                        .toStage())
                .build();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "/a/internal;x=1/y",
                "/a/internal%2Fy",
                "/a/internal%2fy",
                "/a/internal%5Cy",
                "/a/x/..;/internal",
                "/a/internal/..%2F..",
                "/../a/internal",
                "/a/internal%0a",
                "/a/%C0%AFinternal"
            })
    void rejectsBypassSpellingsByDefault(String path) {
        long before = strict.server().rejections(Rejection.BAD_REQUEST);

        RawResponse response = get(strict, path);

        assertThat(response.status()).isEqualTo(400);
        assertThat(strict.server().rejections(Rejection.BAD_REQUEST)).isEqualTo(before + 1);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "/a/internal",
                "/a/./internal",
                "/a/%2e%2e/a/internal",
                "/a/x/%2E%2e/internal/y",
                "/a//internal",
                "/a/%69nternal",
                "http://localhost/a/b/../internal"
            })
    void deniesEverySpellingTheDefaultsNormalise(String path) {
        int before = denied.get();

        assertThat(get(strict, path).status()).isEqualTo(403);
        assertThat(denied.get()).isEqualTo(before + 1);
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
                "/a/x/%2e%2e;/internal",
                "/a/x%2F..%2Finternal",
                "/a/internal/y/..%2F..%2F..%2Fa/internal"
            })
    void deniesEverySpellingItStripsOrUnescapes(String path) {
        assertThat(get(lenient, path).status()).isEqualTo(403);
    }

    @Test
    void givesTheHandlerTheNormalisedPathAndTargetWithTheQueryUntouched() {
        RawResponse response = get(lenient, "/a/%7Euser;jsessionid=1/./x%2Fy?q=%2F..;&r=//");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.bodyText()).isEqualTo("path=/a/~user/x/y target=/a/~user/x/y?q=%2F..;&r=//");
    }

    @Test
    void redirectsToTheUnescapedPathWhenAsked() {
        try (RawConnection connection = redirecting.connect()) {
            connection.send("GET /a/internal%2Fy?q=1 HTTP/1.1\nHost: a\n\n");
            RawResponse response = connection.readResponse();

            assertThat(response.status()).isEqualTo(307);
            assertThat(response.header("location")).isEqualTo("/a/internal/y?q=1");
            assertThat(redirecting.server().rejections(Rejection.BAD_REQUEST)).isZero();
        }
        assertThat(get(redirecting, "/a/b;c").status()).isEqualTo(400);
        assertThat(get(redirecting, "/a/./b").bodyText()).isEqualTo("path=/a/b target=/a/b");
    }

    private static RawResponse get(ServerExtension server, String target) {
        try (RawConnection connection = server.connect()) {
            connection.send("GET " + target + " HTTP/1.1\nHost: a\n\n");
            return connection.readResponse();
        }
    }
}
