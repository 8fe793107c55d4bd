package io.parry.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class HttpResponseTest {

    @Test
    void givesOneCompletedStageThatNoCallerCanChange() {
        HttpResponse response = HttpResponse.ofText("hello");
        CompletableFuture<HttpResponse> stage = response.toStage().toCompletableFuture();

        assertThat(response.toStage()).isSameAs(stage);
        assertThat(stage.getNow(null)).isSameAs(response);
        assertThat(stage.complete(HttpResponse.of(HttpStatus.OK))).isFalse();
        assertThat(stage.cancel(true)).isFalse();
        assertThatThrownBy(() -> stage.obtrudeValue(null)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> stage.obtrudeException(new IllegalStateException()))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(stage.join()).isSameAs(response);
        CompletableFuture<String> later = stage.thenApply(r -> "x").toCompletableFuture();
        assertThat(later.complete("y")).isFalse();
        later.obtrudeValue("z");
        assertThat(later.join()).isEqualTo("z");
    }

    @Test
    void ofTextIsOkPlainTextUtf8() {
        HttpResponse response = HttpResponse.ofText("h\u00e9llo");

        assertThat(response.status()).isSameAs(HttpStatus.OK);
        assertThat(response.headers().get("content-type")).isEqualTo("text/plain; charset=utf-8");
        assertThat(response.body().contentLength()).isEqualTo(6);
        assertThat(bodyText(response)).isEqualTo("h\u00e9llo");
    }

    @Test
    void ofMediaTypeSetsContentType() {
        HttpResponse response = HttpResponse.of(MediaType.JSON, HttpData.ofUtf8("{}"));

        assertThat(response.status()).isSameAs(HttpStatus.OK);
        assertThat(response.headers()).isEqualTo(HttpHeaders.of("content-type", "application/json"));
        assertThat(bodyText(response)).isEqualTo("{}");
    }

    @Test
    void ofStatusAndMediaTypeSetsBoth() {
        HttpResponse response = HttpResponse.of(HttpStatus.CREATED, MediaType.JSON, HttpData.ofUtf8("{}"));

        assertThat(response.status()).isSameAs(HttpStatus.CREATED);
        assertThat(response.headers().get("content-type")).isEqualTo("application/json");
    }

    @Test
    void ofStatusHasNoHeadersAndAnEmptyBody() {
        HttpResponse response = HttpResponse.of(HttpStatus.NO_CONTENT);

        assertThat(response.headers().isEmpty()).isTrue();
        assertThat(response.body().contentLength()).isZero();
    }

    @Test
    void factoriesRejectNulls() {
        assertThatThrownBy(() -> HttpResponse.of(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> HttpResponse.of(HttpStatus.OK, null, HttpBody.empty()))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> HttpResponse.of(HttpStatus.OK, HttpHeaders.empty(), null))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void withHeaderReplacesTheFieldInACopy() {
        HttpResponse original = HttpResponse.ofText("x");

        HttpResponse changed = original.withHeader("Content-Type", "text/html").withHeader("x-a", "1");

        assertThat(changed.headers().getAll("content-type")).containsExactly("text/html");
        assertThat(changed.headers().get("x-a")).isEqualTo("1");
        assertThat(changed.body()).isSameAs(original.body());
        assertThat(original.headers().get("content-type")).isEqualTo("text/plain; charset=utf-8");
        assertThat(original.headers().contains("x-a")).isFalse();
    }

    @Test
    void mapHeadersEditsACopy() {
        HttpResponse original = HttpResponse.ofText("x");

        HttpResponse changed = original.mapHeaders(h -> h.remove("content-type").add("cache-control", "no-store"));

        assertThat(changed.headers()).isEqualTo(HttpHeaders.of("cache-control", "no-store"));
        assertThat(original.headers().contains("content-type")).isTrue();
    }

    @Test
    void withStatusAndWithBodyReturnCopies() {
        HttpResponse original = HttpResponse.ofText("x");
        HttpBody body = HttpBody.ofUtf8("y");

        HttpResponse changed = original.withStatus(HttpStatus.ACCEPTED).withBody(body);

        assertThat(changed.status()).isSameAs(HttpStatus.ACCEPTED);
        assertThat(changed.body()).isSameAs(body);
        assertThat(changed.headers()).isSameAs(original.headers());
        assertThat(original.status()).isSameAs(HttpStatus.OK);
        assertThat(bodyText(original)).isEqualTo("x");
    }

    @Test
    void toStageIsCompletedWithTheResponse() {
        HttpResponse response = HttpResponse.ofText("x");

        CompletableFuture<HttpResponse> stage = response.toStage().toCompletableFuture();

        assertThat(stage).isCompleted();
        assertThat(stage.getNow(null)).isSameAs(response);
    }

    @Test
    void builderBodyWithMediaTypeReplacesContentType() {
        HttpResponse response = HttpResponse.builder(HttpStatus.OK)
                .header("content-type", "text/plain")
                .header("location", "/todos/42")
                .status(HttpStatus.CREATED)
                .body(MediaType.JSON, HttpData.ofUtf8("{\"id\":42}"))
                .build();

        assertThat(response.status()).isSameAs(HttpStatus.CREATED);
        assertThat(response.headers().getAll("content-type")).containsExactly("application/json");
        assertThat(response.headers().get("location")).isEqualTo("/todos/42");
        assertThat(bodyText(response)).isEqualTo("{\"id\":42}");
    }

    @Test
    void toBuilderStartsFromTheResponseWithoutChangingIt() {
        HttpResponse original = HttpResponse.ofText("x");

        HttpResponse changed = original.toBuilder().header("x-a", "1").build();

        assertThat(changed.status()).isSameAs(HttpStatus.OK);
        assertThat(changed.headers().get("content-type")).isEqualTo("text/plain; charset=utf-8");
        assertThat(changed.headers().get("x-a")).isEqualTo("1");
        assertThat(changed.body()).isSameAs(original.body());
        assertThat(original.headers().contains("x-a")).isFalse();
    }

    @Test
    void toStringShowsTheStatus() {
        assertThat(HttpResponse.of(HttpStatus.NOT_FOUND)).hasToString("HttpResponse(404 Not Found)");
    }

    private static String bodyText(HttpResponse response) {
        return response.body()
                .aggregate(1024)
                .toCompletableFuture()
                .getNow(null)
                .toStringUtf8();
    }
}
