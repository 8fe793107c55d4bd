package io.parry.auth.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QueryParamsTest {

    @Test
    void findsRemovesAndMasksOneParameter() {
        String query = "a=1&api_key=s%2Fcret&api_keyx=2&api_key=again";

        assertThat(QueryParams.value(query, "api_key")).isEqualTo("s/cret");
        assertThat(QueryParams.value(query, "missing")).isNull();
        assertThat(QueryParams.rewrite(query, "api_key", null)).isEqualTo("a=1&api_keyx=2");
        assertThat(QueryParams.rewrite(query, "api_key", "REDACTED"))
                .isEqualTo("a=1&api_key=REDACTED&api_keyx=2&api_key=REDACTED");
    }
}
