package io.parry.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class JsonEndpointsBuilderTest {

    @Test
    void refusesANegativeBodyLimit() {
        assertThatThrownBy(() -> JsonEndpoints.builder().maxBodyBytes(-1).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxBodyBytes: -1 (expected: >= 0)");
    }

    @Test
    void defaultsToTheDefaultCodecNoValidationAndOneMebibyte() {
        assertThat(JsonEndpoints.ofDefault().toString())
                .isEqualTo("JsonEndpoints(validator: InputValidator.none(), maxBodyBytes: 1048576)");
    }

    @Test
    void toBuilderKeepsTheSettings() {
        JsonCodec codec = JsonCodec.ofDefault();
        JsonEndpoints endpoints =
                JsonEndpoints.builder().codec(codec).maxBodyBytes(10).build();

        JsonEndpoints copy = endpoints.toBuilder().build();

        assertThat(copy.codec()).isSameAs(codec);
        assertThat(copy.toString()).isEqualTo(endpoints.toString());
    }

    @Test
    void checksArguments() {
        JsonEndpoints endpoints = JsonEndpoints.ofDefault();

        assertThatThrownBy(() -> endpoints.of(null, (ctx, in) -> null)).hasMessage("type");
        assertThatThrownBy(() -> endpoints.of(String.class, null)).hasMessage("handler");
        assertThatThrownBy(() -> endpoints.withoutBody(null)).hasMessage("handler");
        assertThatThrownBy(() -> JsonEndpoints.builder().codec(null)).hasMessage("codec");
        assertThatThrownBy(() -> JsonEndpoints.builder().validator(null)).hasMessage("validator");
    }
}
