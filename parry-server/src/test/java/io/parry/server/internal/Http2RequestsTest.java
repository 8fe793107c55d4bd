package io.parry.server.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpStatus;
import io.parry.server.ServerOptions;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A connection's header blocks: the method, path and Host kept from a block whose HPACK entries come
 * again are those the new block says, and an entry that changes, or was refused, is read afresh.
 */
class Http2RequestsTest {
    private static final AsciiString GET = AsciiString.cached("GET");
    private static final AsciiString HTTP = AsciiString.cached("http");
    private static final AsciiString PATH = AsciiString.cached("/plaintext");
    private static final AsciiString AUTHORITY = AsciiString.cached("example.com:8080");
    private static final AsciiString HOST = AsciiString.cached("host");
    private static final AsciiString USER_AGENT = AsciiString.cached("user-agent");
    private static final AsciiString AGENT = AsciiString.cached("h2load nghttp2/1.52.0");
    private static final AsciiString ACCEPT = AsciiString.cached("accept");

    private final ServerRuntime runtime = new ServerRuntime(
            ServerOptions.ofDefault(),
            (ctx, request) -> new CompletableFuture<>(),
            new RequestListeners(List.of()),
            null);
    private final Http2Requests requests = new Http2Requests();

    @Test
    void readsABlockThatRepeatsTheLastOnesEntriesAsTheFirst() throws Exception {
        read(block(PATH, AUTHORITY, AGENT));
        HttpRequest second = read(block(PATH, AUTHORITY, AGENT));

        assertThat(second.path()).isEqualTo("/plaintext");
        assertThat(second.method()).isSameAs(HttpMethod.GET);
        assertThat(value(second.headers(), "user-agent")).isEqualTo("h2load nghttp2/1.52.0");
        assertThat(value(second.headers(), "host")).isEqualTo("example.com:8080");
        assertThat(requests.host()).isEqualTo("example.com:8080");
    }

    @Test
    void readsFieldsSentAsNewCopiesOfTheLastBlocksText() throws Exception {
        read(block(PATH, AUTHORITY, AGENT));

        HttpRequest copy = read(block(new AsciiString("/plaintext"), new AsciiString("example.com:8080"), AGENT)
                .method(new AsciiString("GET")));

        assertThat(copy.path()).isEqualTo("/plaintext");
        assertThat(copy.method()).isSameAs(HttpMethod.GET);
        assertThat(requests.host()).isEqualTo("example.com:8080");
    }

    @Test
    void refusesARepeatedHostAfterTheSameHostWasValid() throws Exception {
        read(block(PATH, AUTHORITY, AGENT));

        Http2Headers twoHosts =
                block(PATH, AUTHORITY, AGENT).add(HOST, AUTHORITY).add(HOST, AUTHORITY);

        assertThatThrownBy(() -> read(twoHosts)).isInstanceOf(Http2Requests.RefusedHead.class);
    }

    @Test
    void readsAnEntryAfreshWhenTheNextBlockHasAnotherInItsPlace() throws Exception {
        read(block(PATH, AUTHORITY, AGENT));

        HttpRequest second =
                read(block(new AsciiString("/other"), new AsciiString("other.example"), new AsciiString("curl/8")));

        assertThat(second.path()).isEqualTo("/other");
        assertThat(value(second.headers(), "user-agent")).isEqualTo("curl/8");
        assertThat(value(second.headers(), "host")).isEqualTo("other.example");
        assertThat(requests.host()).isEqualTo("other.example");
    }

    @Test
    void refusesAnInvalidAuthorityThatFollowsAValidOne() throws Exception {
        read(block(PATH, AUTHORITY, AGENT));

        assertThatThrownBy(() -> read(block(PATH, new AsciiString("bad host"), AGENT)))
                .isInstanceOfSatisfying(Http2Requests.RefusedHead.class, refused -> assertThat(refused.refusal.status)
                        .isEqualTo(HttpStatus.BAD_REQUEST));
    }

    @Test
    void refusesTheSameRefusedPathEntryEveryTime() {
        AsciiString dotDotEscape = new AsciiString("/a/%2e%2e/%2F");
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> read(block(dotDotEscape, AUTHORITY, AGENT)))
                    .isInstanceOf(Http2Requests.RefusedHead.class);
        }
    }

    @Test
    void readsAMethodThatChangesAtTheSameEntryPlace() throws Exception {
        read(block(PATH, AUTHORITY, AGENT));

        Http2Headers post = block(PATH, AUTHORITY, AGENT).method(AsciiString.cached("POST"));

        assertThat(read(post).method()).isEqualTo(HttpMethod.POST);
    }

    @Test
    void givesTheLastRequestAgainForABlockOfTheSameFields() throws Exception {
        HttpRequest first = read(block(PATH, AUTHORITY, AGENT));

        assertThat(read(block(new AsciiString("/plaintext"), AUTHORITY, AGENT))).isSameAs(first);
    }

    @Test
    void readsTheFieldsAfreshWhenABlockAddsOne() throws Exception {
        HttpRequest first = read(block(PATH, AUTHORITY, AGENT));

        HttpRequest second = read(block(PATH, AUTHORITY, AGENT).add(ACCEPT, AsciiString.cached("*/*")));

        assertThat(second).isNotSameAs(first);
        assertThat(value(second.headers(), "accept")).isEqualTo("*/*");
        assertThat(value(second.headers(), "user-agent")).isEqualTo("h2load nghttp2/1.52.0");
        assertThat(read(block(PATH, AUTHORITY, AGENT)).headers().size()).isEqualTo(2);
    }

    @Test
    void readsTheFieldsAfreshWhenOnlyTheAuthorityChanges() throws Exception {
        read(block(PATH, AUTHORITY, AGENT));

        HttpRequest other = read(block(PATH, new AsciiString("other.example"), AGENT));

        assertThat(value(other.headers(), "host")).isEqualTo("other.example");
        assertThat(requests.host()).isEqualTo("other.example");
    }

    @Test
    void keepsTheHeadersButMakesAnotherRequestWhenOnlyThePathChanges() throws Exception {
        HttpRequest first = read(block(PATH, AUTHORITY, AGENT));

        HttpRequest other = read(block(new AsciiString("/other"), AUTHORITY, AGENT));

        assertThat(other.path()).isEqualTo("/other");
        assertThat(other.headers()).isSameAs(first.headers());
    }

    @Test
    void joinsCookieCrumbsOfARepeatedBlockAsBefore() throws Exception {
        AsciiString cookie = AsciiString.cached("cookie");
        read(block(PATH, AUTHORITY, AGENT)
                .add(cookie, AsciiString.cached("a=1"))
                .add(cookie, AsciiString.cached("b=2")));

        HttpRequest again = read(block(PATH, AUTHORITY, AGENT)
                .add(cookie, AsciiString.cached("a=1"))
                .add(cookie, new AsciiString("b=3")));

        assertThat(value(again.headers(), "cookie")).isEqualTo("a=1; b=3");
    }

    private HttpRequest read(Http2Headers headers) throws Http2Requests.RefusedHead {
        HttpHeaders fields = requests.fields(headers, true);
        return requests.request(headers, fields, runtime);
    }

    private static Http2Headers block(AsciiString path, AsciiString authority, AsciiString agent) {
        return new DefaultHttp2Headers(false)
                .method(GET)
                .scheme(HTTP)
                .path(path)
                .authority(authority)
                .add(USER_AGENT, agent);
    }

    private static String value(HttpHeaders headers, String name) {
        for (int i = 0; i < headers.size(); i++) {
            if (headers.name(i).equals(name)) {
                return headers.value(i);
            }
        }
        return null;
    }
}
