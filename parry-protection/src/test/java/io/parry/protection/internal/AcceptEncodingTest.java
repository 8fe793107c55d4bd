package io.parry.protection.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AcceptEncodingTest {
    private static final List<ContentCoding> OFFERED = List.of(ContentCoding.GZIP, ContentCoding.DEFLATE);

    @ParameterizedTest(name = "Accept-Encoding: {0} -> {1}, identity refused: {2}")
    @CsvSource(
            delimiter = '|',
            textBlock =
                    """
            ''                                | identity | false
            gzip                              | gzip     | false
            GZip                              | gzip     | false
            x-gzip                            | gzip     | false
            deflate                           | deflate  | false
            deflate, gzip                     | gzip     | false
            gzip;q=0.5, deflate               | deflate  | false
            gzip ; q=0.8 , deflate;Q=0.9      | deflate  | false
            gzip;q=1.0, deflate;q=0.999       | gzip     | false
            gzip;q=0.001                      | gzip     | false
            gzip;q=0                          | identity | false
            gzip;q=0.000                      | identity | false
            br                                | identity | false
            br, *;q=0.1                       | gzip     | false
            *                                 | gzip     | false
            '*, gzip;q=0'                     | deflate  | false
            *;q=0                             | identity | true
            '*;q=0, identity'                 | identity | false
            identity;q=0                      | identity | true
            'gzip, identity;q=0'              | gzip     | true
            'gzip;q=0.5, identity'            | identity | false
            'gzip;q=0.5, identity;q=0.5'      | gzip     | false
            gzip;q=abc                        | identity | false
            gzip;q=1.5                        | identity | false
            gzip;q=0.1234                     | identity | false
            gzip;level=9                      | gzip     | false
            ',, gzip ,'                       | gzip     | false
            """)
    void choosesTheCodingByWeight(String field, String expected, boolean identityRefused) {
        Negotiation negotiation = AcceptEncoding.negotiate(List.of(field), OFFERED);

        assertThat(
                        negotiation.coding() == null
                                ? "identity"
                                : negotiation.coding().token())
                .isEqualTo(expected);
        assertThat(negotiation.identityRefused()).isEqualTo(identityRefused);
    }

    @ParameterizedTest
    @CsvSource({"'gzip;q=0.2', 'deflate;q=0.3', deflate", "'deflate;q=0', 'gzip', gzip"})
    void readsEveryFieldLine(String first, String second, String expected) {
        Negotiation negotiation = AcceptEncoding.negotiate(List.of(first, second), OFFERED);

        assertThat(negotiation.coding().token()).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"gzip, identity", "'deflate, gzip;q=0.5', deflate"})
    void offersOnlyTheConfiguredCodings(String field, String expected) {
        Negotiation negotiation = AcceptEncoding.negotiate(List.of(field), List.of(ContentCoding.DEFLATE));

        assertThat(
                        negotiation.coding() == null
                                ? "identity"
                                : negotiation.coding().token())
                .isEqualTo(expected);
    }

    @Test
    void sendsNoCodingWithoutTheField() {
        assertThat(AcceptEncoding.negotiate(List.of(), OFFERED)).isEqualTo(Negotiation.IDENTITY);
    }
}
