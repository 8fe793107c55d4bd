package io.parry.gateway.internal.config;

import static io.parry.gateway.internal.config.ConfigValidationTest.errors;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.compression.zstd.ZstdCoding;
import io.parry.protection.CompressionFilter;
import io.parry.protection.ContentCoding;
import io.parry.protection.RequestDecompressionFilter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The YAML of {@code compression}: the library's defaults, per route and in {@code defaults}, and errors with their line. */
class CompressionConfigTest {
    private static final String ROUTE = "    match: { path: /a }\n    respond: {}\n";

    @Test
    void readsAnEmptySectionAsTheLibrarysDefaultsWithZstdPreferredToGzip() {
        GatewayConfig config = ConfigLoader.parse("routes:\n  - compression: {}\n" + ROUTE, "gw.yaml", Map.of());

        CompressionConfig compression = config.routes().get(0).protection().compression();
        assertThat(compression.responses())
                .isEqualTo(CompressionFilter.ofDefault().toBuilder()
                        .encodings(List.of(ZstdCoding.ofDefault(), ContentCoding.gzip(6)))
                        .build());
        assertThat(compression.requests()).isNull();
    }

    @Test
    void givesEveryRouteTheDefaultUnlessItHasItsOwnOrTurnsItOff() {
        GatewayConfig config = ConfigLoader.parse(
                """
                defaults:
                  compression: { level: 1, minSize: 256, contentTypes: [application/json] }
                routes:
                  - name: plain
                    match: { path: /a }
                    respond: {}
                  - name: own
                    match: { path: /b }
                    compression:
                      encodings: [deflate, gzip, zstd]
                      eventStreams: true
                      requestDecompression: { maxSize: 1MiB }
                    respond: {}
                  - name: none
                    match: { path: /c }
                    compression: off
                    respond: {}
                """,
                "gw.yaml",
                Map.of());

        assertThat(config.routes().get(0).protection().compression().responses())
                .isEqualTo(CompressionFilter.builder()
                        .encodings(List.of(ZstdCoding.ofDefault(), ContentCoding.gzip(1)))
                        .minSize(256)
                        .contentTypes(List.of("application/json"))
                        .build());
        CompressionConfig own = config.routes().get(1).protection().compression();
        assertThat(own.responses())
                .isEqualTo(CompressionFilter.builder()
                        .encodings(List.of(ContentCoding.deflate(6), ContentCoding.gzip(6), ZstdCoding.ofDefault()))
                        .eventStreams(true)
                        .build());
        assertThat(own.requests())
                .isEqualTo(RequestDecompressionFilter.of(
                        1 << 20, List.of(ContentCoding.gzip(6), ContentCoding.deflate(6), ZstdCoding.ofDefault())));
        assertThat(config.routes().get(2).protection().compression()).isNull();
    }

    @Test
    void reportsWrongSettingsWithTheirLines() {
        assertThat(errors("routes:\n  - compression: { level: 10 }\n" + ROUTE))
                .singleElement()
                .asString()
                .startsWith("gw.yaml:2:27: 'level' must be an integer from 1 to 9");
        assertThat(errors("routes:\n  - compression: { encodings: [zstd, br] }\n" + ROUTE))
                .containsExactly("gw.yaml:2:38: each entry of 'encodings' must be zstd, gzip or deflate, got 'br'");
        assertThat(errors("routes:\n  - compression: { encodings: [gzip, gzip] }\n" + ROUTE))
                .singleElement()
                .asString()
                .startsWith("gw.yaml:2:18: route 'route-1' compression is invalid: encodings: [gzip(level 6),"
                        + " gzip(level 6)] (expected: each coding once)");
        assertThat(errors("routes:\n  - compression: { contentTypes: [json] }\n" + ROUTE))
                .singleElement()
                .asString()
                .startsWith("gw.yaml:2:18: route 'route-1' compression is invalid: contentTypes: json (expected:");
        assertThat(errors("routes:\n  - compression: { requestDecompression: { maxSize: 0 } }\n" + ROUTE))
                .containsExactly("gw.yaml:2:53: 'maxSize' must be greater than zero, got '0'");
        assertThat(errors("routes:\n  - compression: { gzip: true }\n" + ROUTE))
                .singleElement()
                .asString()
                .contains("gzip");
    }
}
