package io.parry.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.server.PathNormalization.EscapedSlashAction;
import io.parry.server.PathNormalization.PathParameterAction;
import org.junit.jupiter.api.Test;

class PathNormalizationTest {

    @Test
    void rejectsEncodedSlashesAndPathParametersByDefault() {
        PathNormalization defaults = PathNormalization.ofDefault();

        assertThat(defaults.escapedSlashes()).isEqualTo(EscapedSlashAction.REJECT_REQUEST);
        assertThat(defaults.pathParameters()).isEqualTo(PathParameterAction.REJECT_REQUEST);
        assertThat(ServerOptions.ofDefault().pathNormalization()).isSameAs(defaults);
    }

    @Test
    void isAValue() {
        PathNormalization stripping = PathNormalization.builder()
                .escapedSlashes(EscapedSlashAction.UNESCAPE_AND_FORWARD)
                .pathParameters(PathParameterAction.STRIP)
                .build();

        assertThat(stripping.toBuilder().build()).isEqualTo(stripping).hasSameHashCodeAs(stripping);
        assertThat(stripping).isNotEqualTo(PathNormalization.ofDefault());
        assertThat(PathNormalization.builder().build()).isEqualTo(PathNormalization.ofDefault());
        assertThat(stripping)
                .hasToString("PathNormalization{escapedSlashes=UNESCAPE_AND_FORWARD, pathParameters=STRIP}");
        assertThat(ServerOptions.builder().pathNormalization(stripping).build().toBuilder()
                        .build()
                        .pathNormalization())
                .isSameAs(stripping);
    }

    @Test
    void refusesNoAction() {
        assertThatThrownBy(() -> PathNormalization.builder().escapedSlashes(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("escapedSlashes");
        assertThatThrownBy(() -> PathNormalization.builder().pathParameters(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("pathParameters");
    }
}
