package io.parry.json.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ContentTypesTest {

    @Test
    void acceptsJsonWithOrWithoutAUtf8Charset() {
        assertThat(ContentTypes.refusal("application/json", null)).isNull();
        assertThat(ContentTypes.refusal("Application/JSON", null)).isNull();
        assertThat(ContentTypes.refusal("application/json; charset=utf-8", null))
                .isNull();
        assertThat(ContentTypes.refusal("application/json;charset=\"UTF-8\"", "identity"))
                .isNull();
    }

    @Test
    void acceptsStructuredSyntaxJsonSuffixes() {
        assertThat(ContentTypes.refusal("application/merge-patch+json", null)).isNull();
        assertThat(ContentTypes.refusal("application/vnd.todo.v2+json; charset=utf-8", null))
                .isNull();
    }

    @Test
    void refusesAMissingContentType() {
        assertThat(ContentTypes.refusal(null, null))
                .isEqualTo("The request has no Content-Type; expected application/json.");
    }

    @Test
    void refusesOtherMediaTypes() {
        assertThat(ContentTypes.refusal("text/plain", null))
                .isEqualTo("The Content-Type text/plain is not supported; expected application/json.");
        assertThat(ContentTypes.refusal("text/json", null)).isNotNull();
        assertThat(ContentTypes.refusal("application/jsonx", null)).isNotNull();
        assertThat(ContentTypes.refusal("application/x-www-form-urlencoded", null))
                .isNotNull();
    }

    @Test
    void refusesTextThatIsNotAMediaType() {
        assertThat(ContentTypes.refusal("json", null))
                .isEqualTo("The Content-Type is not a media type; expected application/json.");
    }

    @Test
    void refusesCharsetsOtherThanUtf8() {
        assertThat(ContentTypes.refusal("application/json; charset=iso-8859-1", null))
                .isEqualTo("JSON must be sent in UTF-8, not iso-8859-1.");
    }

    @Test
    void refusesContentCodings() {
        assertThat(ContentTypes.refusal("application/json", "gzip"))
                .isEqualTo("Content-Encoding gzip is not supported; send the JSON uncoded.");
    }
}
