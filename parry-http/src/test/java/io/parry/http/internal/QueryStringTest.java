package io.parry.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QueryStringTest {

    @Test
    void firstFindsTheFirstValueOfAName() {
        assertThat(QueryString.first("a=1&b=2&a=3", "a")).isEqualTo("1");
        assertThat(QueryString.first("a=1&b=2&a=3", "b")).isEqualTo("2");
    }

    @Test
    void allFindsEveryValueOfANameInOrder() {
        assertThat(QueryString.all("a=1&b=2&a=3&a=", "a")).containsExactly("1", "3", "");
    }

    @Test
    void absentNameGivesNullOrNoValues() {
        assertThat(QueryString.first("a=1", "b")).isNull();
        assertThat(QueryString.all("a=1", "b")).isEmpty();
        assertThat(QueryString.first("", "a")).isNull();
    }

    @Test
    void namesMatchExactly() {
        assertThat(QueryString.first("ab=1&A=2", "a")).isNull();
        assertThat(QueryString.first("ab=1&a=2", "a")).isEqualTo("2");
    }

    @Test
    void nameWithoutEqualsHasAnEmptyValue() {
        assertThat(QueryString.first("flag&b=2", "flag")).isEmpty();
        assertThat(QueryString.first("b=2&flag", "flag")).isEmpty();
    }

    @Test
    void valueMayHoldEqualsSigns() {
        assertThat(QueryString.first("token=a=b==", "token")).isEqualTo("a=b==");
    }

    @Test
    void skipsEmptyParameters() {
        assertThat(QueryString.first("&&a=1&", "a")).isEqualTo("1");
        assertThat(QueryString.all("&&a=1&&a=2&", "a")).containsExactly("1", "2");
    }

    @Test
    void decodesPlusAsSpace() {
        assertThat(QueryString.first("q=milk+and+honey", "q")).isEqualTo("milk and honey");
    }

    @Test
    void decodesPercentEscapesAsUtf8() {
        assertThat(QueryString.first("q=caf%C3%A9%20%e2%82%ac", "q")).isEqualTo("caf\u00e9 \u20ac");
        assertThat(QueryString.first("q=%2B%26%3D", "q")).isEqualTo("+&=");
    }

    @Test
    void decodesAnEscapeAtTheVeryEnd() {
        assertThat(QueryString.first("q=a%41", "q")).isEqualTo("aA");
        assertThat(QueryString.first("q=%41&r=1", "q")).isEqualTo("A");
    }

    @Test
    void decodesNamesBeforeComparing() {
        assertThat(QueryString.first("filter%5Bname%5D=x&a+b=y", "filter[name]"))
                .isEqualTo("x");
        assertThat(QueryString.first("filter%5Bname%5D=x&a+b=y", "a b")).isEqualTo("y");
    }

    @Test
    void decodeReturnsPlainRangesUnchanged() {
        assertThat(QueryString.decode("xabcx", 1, 4)).isEqualTo("abc");
        assertThat(QueryString.decode("x%41+x", 1, 5)).isEqualTo("A ");
    }
}
