package io.parry.protection.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.protection.ContentCoding;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AcceptEncodingTest {
    private static final List<ContentCoding> OFFERED = List.of(ContentCoding.gzip(6), ContentCoding.deflate(6));

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
        int outcome = AcceptEncoding.negotiate(List.of(field), OFFERED);

        assertThat(token(outcome, OFFERED)).isEqualTo(expected);
        assertThat(AcceptEncoding.identityRefused(outcome)).isEqualTo(identityRefused);
    }

    @ParameterizedTest
    @CsvSource({"'gzip;q=0.2', 'deflate;q=0.3', deflate", "'deflate;q=0', 'gzip', gzip"})
    void readsEveryFieldLine(String first, String second, String expected) {
        int outcome = AcceptEncoding.negotiate(List.of(first, second), OFFERED);

        assertThat(token(outcome, OFFERED)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"gzip, identity", "'deflate, gzip;q=0.5', deflate"})
    void offersOnlyTheConfiguredCodings(String field, String expected) {
        List<ContentCoding> deflate = List.of(ContentCoding.deflate(6));

        assertThat(token(AcceptEncoding.negotiate(List.of(field), deflate), deflate))
                .isEqualTo(expected);
    }

    @Test
    void sendsNoCodingWithoutTheField() {
        assertThat(AcceptEncoding.negotiate(List.of(), OFFERED)).isEqualTo(AcceptEncoding.IDENTITY);
    }

    @ParameterizedTest
    @CsvSource({"'zstd, gzip', zstd", "'gzip, zstd', zstd", "'gzip, zstd;q=0.9', gzip", "'gzip, br', gzip"})
    void breaksTiesByTheServersOrder(String field, String expected) {
        List<ContentCoding> offered = List.of(new Named("zstd"), ContentCoding.gzip(6));

        assertThat(token(AcceptEncoding.negotiate(List.of(field), offered), offered))
                .isEqualTo(expected);
    }

    private static String token(int outcome, List<ContentCoding> offered) {
        int chosen = AcceptEncoding.chosen(outcome);
        return chosen < 0 ? "identity" : offered.get(chosen).token();
    }

    /** A coding known by its name alone: negotiation reads nothing else. */
    private record Named(String token) implements ContentCoding {
        @Override
        public Transform encoder() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Transform decoder(long maxSize) {
            throw new UnsupportedOperationException();
        }
    }
}
