package io.parry.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HttpRequestTest {

    @Test
    void builderSplitsPathAndQuery() {
        HttpRequest request = HttpRequest.of(HttpMethod.GET, "/todos/42?view=full&x=1");

        assertThat(request.method()).isSameAs(HttpMethod.GET);
        assertThat(request.target()).isEqualTo("/todos/42?view=full&x=1");
        assertThat(request.path()).isEqualTo("/todos/42");
        assertThat(request.query()).isEqualTo("view=full&x=1");
    }

    @Test
    void queryIsEmptyWithoutQuestionMark() {
        assertThat(HttpRequest.of(HttpMethod.GET, "/todos").query()).isEmpty();
    }

    @Test
    void pathIsNormalisedButTargetKeptAsGiven() {
        HttpRequest request = HttpRequest.of(HttpMethod.GET, "/a/%2e%2e/b/./c%41");

        assertThat(request.path()).isEqualTo("/b/cA");
        assertThat(request.target()).isEqualTo("/a/%2e%2e/b/./c%41");
    }

    @Test
    void queryParamDecodesPlusAndPercentEscapes() {
        HttpRequest request = HttpRequest.of(HttpMethod.GET, "/search?q=milk+and%20honey&sym=%E2%82%AC%2B");

        assertThat(request.queryParam("q")).contains("milk and honey");
        assertThat(request.queryParam("sym")).contains("\u20ac+");
    }

    @Test
    void queryParamReturnsTheFirstOfRepeatedNames() {
        HttpRequest request = HttpRequest.of(HttpMethod.GET, "/?tag=a&other=x&tag=b");

        assertThat(request.queryParam("tag")).contains("a");
        assertThat(request.queryParams("tag")).containsExactly("a", "b");
    }

    @Test
    void queryParamIsEmptyWhenAbsent() {
        HttpRequest request = HttpRequest.of(HttpMethod.GET, "/?tag=a");

        assertThat(request.queryParam("missing")).isEmpty();
        assertThat(request.queryParams("missing")).isEmpty();
        assertThat(HttpRequest.of(HttpMethod.GET, "/").queryParam("tag")).isEmpty();
    }

    @Test
    void queryParamWithoutValueIsEmptyText() {
        HttpRequest request = HttpRequest.of(HttpMethod.GET, "/?flag&empty=");

        assertThat(request.queryParam("flag")).contains("");
        assertThat(request.queryParam("empty")).contains("");
    }

    @Test
    void absoluteFormTargetSetsHostFromTheAuthority() {
        HttpRequest request = HttpRequest.of(HttpMethod.GET, "http://example.com:8080/a?b=c");

        assertThat(request.authority()).isEqualTo("example.com:8080");
        assertThat(request.headers().getAll("host")).containsExactly("example.com:8080");
        assertThat(request.path()).isEqualTo("/a");
        assertThat(request.query()).isEqualTo("b=c");
    }

    @Test
    void absoluteFormTargetReplacesAHostHeader() {
        HttpRequest request = HttpRequest.builder(HttpMethod.GET, "https://example.com/")
                .header("Host", "other.example")
                .header("HOST", "third.example")
                .build();

        assertThat(request.headers().getAll("host")).containsExactly("example.com");
    }

    @Test
    void absoluteFormTargetLeavesExactlyOneHostField() {
        HttpRequest request = HttpRequest.builder(HttpMethod.GET, "http://example.com/")
                .header("Host", "example.com")
                .header("Host", "evil.example")
                .build();

        assertThat(request.headers().getAll("host")).containsExactly("example.com");
    }

    @Test
    void originFormTargetKeepsTheHostHeader() {
        HttpRequest request = HttpRequest.builder(HttpMethod.GET, "/a")
                .header("Host", "example.com")
                .build();

        assertThat(request.authority()).isEqualTo("example.com");
        assertThat(HttpRequest.of(HttpMethod.GET, "/a").authority()).isNull();
    }

    @Test
    void asteriskFormHasAsteriskPath() {
        HttpRequest request = HttpRequest.of(HttpMethod.OPTIONS, "*");

        assertThat(request.path()).isEqualTo("*");
        assertThat(request.query()).isEmpty();
    }

    @Test
    void builderRejectsAMalformedTarget() {
        assertThatThrownBy(() -> HttpRequest.builder(HttpMethod.GET, "/a b"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HttpRequest.builder(HttpMethod.GET, "relative/path"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void builderRejectsNulls() {
        assertThatThrownBy(() -> HttpRequest.builder(null, "/")).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> HttpRequest.builder(HttpMethod.GET, null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void builderHeadersReplacesEarlierHeadersAndHeaderAddsToThem() {
        HttpRequest request = HttpRequest.builder(HttpMethod.GET, "/")
                .header("a", "1")
                .headers(HttpHeaders.of("b", "2"))
                .header("c", "3")
                .build();

        assertThat(request.headers()).isEqualTo(HttpHeaders.of("b", "2", "c", "3"));
    }

    @Test
    void bodyIsEmptyByDefault() {
        assertThat(HttpRequest.of(HttpMethod.GET, "/").body().contentLength()).isZero();
    }

    @Test
    void withTargetNormalisesTheNewPathAndKeepsTheRest() {
        HttpBody body = HttpBody.ofUtf8("x");
        HttpRequest original = HttpRequest.builder(HttpMethod.POST, "/old?a=1")
                .header("host", "example.com")
                .body(body)
                .build();

        HttpRequest moved = original.withTarget("/x/./y/../z?k=v");

        assertThat(moved.target()).isEqualTo("/x/./y/../z?k=v");
        assertThat(moved.path()).isEqualTo("/x/z");
        assertThat(moved.queryParam("k")).contains("v");
        assertThat(moved.method()).isSameAs(HttpMethod.POST);
        assertThat(moved.headers()).isSameAs(original.headers());
        assertThat(moved.body()).isSameAs(body);
        assertThat(original.path()).isEqualTo("/old");
    }

    @Test
    void withTargetInAbsoluteFormSetsHostFromTheAuthority() {
        HttpRequest original = HttpRequest.builder(HttpMethod.GET, "/a")
                .header("host", "old.example")
                .build();

        HttpRequest moved = original.withTarget("http://new.example/b");

        assertThat(moved.authority()).isEqualTo("new.example");
        assertThat(moved.headers().getAll("host")).containsExactly("new.example");
        assertThat(moved.path()).isEqualTo("/b");
        assertThat(original.authority()).isEqualTo("old.example");
    }

    @Test
    void withTargetRejectsAMalformedTarget() {
        HttpRequest request = HttpRequest.of(HttpMethod.GET, "/");

        assertThatThrownBy(() -> request.withTarget("/a#b")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void withHeadersAndMapHeadersReturnCopies() {
        HttpRequest original =
                HttpRequest.builder(HttpMethod.GET, "/").header("a", "1").build();

        HttpRequest replaced = original.withHeaders(HttpHeaders.of("b", "2"));
        HttpRequest mapped = original.mapHeaders(h -> h.add("c", "3"));

        assertThat(replaced.headers()).isEqualTo(HttpHeaders.of("b", "2"));
        assertThat(mapped.headers()).isEqualTo(HttpHeaders.of("a", "1", "c", "3"));
        assertThat(original.headers()).isEqualTo(HttpHeaders.of("a", "1"));
        assertThat(mapped.path()).isEqualTo(original.path());
    }

    @Test
    void withBodyReturnsACopy() {
        HttpRequest original = HttpRequest.of(HttpMethod.POST, "/");
        HttpBody body = HttpBody.ofUtf8("hello");

        HttpRequest changed = original.withBody(body);

        assertThat(changed.body()).isSameAs(body);
        assertThat(original.body()).isSameAs(HttpBody.empty());
    }

    @Test
    void toStringIsMethodAndTarget() {
        assertThat(HttpRequest.of(HttpMethod.DELETE, "/todos/1?x")).hasToString("DELETE /todos/1?x");
    }
}
