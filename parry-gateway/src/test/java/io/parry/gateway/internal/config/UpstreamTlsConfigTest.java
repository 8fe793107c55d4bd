package io.parry.gateway.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.ClientOptions;
import io.parry.client.ClientProtocol;
import io.parry.client.ClientTlsOptions;
import io.parry.client.Endpoint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An upstream's {@code protocol} and {@code tls} become its client's options and secure endpoints. */
class UpstreamTlsConfigTest {
    @TempDir
    Path dir;

    @Test
    void readsTlsAndProtocolIntoTheGroupsClientOptions() throws IOException {
        Path ca = pem("ca.pem");
        Path chain = pem("gateway.pem");
        Path key = pem("gateway-key.pem");
        String yaml =
                """
                upstreams:
                  api:
                    endpoints: [10.0.0.7:8443, http://10.0.0.8:8443]
                    protocol: h2
                    tls:
                      ca: %s
                      sniName: api.internal
                      clientCertificate: { chain: %s, key: %s }
                routes:
                  - { match: { prefix: /api }, proxy: { upstream: api } }
                """
                        .formatted(ca, chain, key);

        UpstreamConfig api =
                ConfigLoader.parse(yaml, "gw.yaml", Map.of()).upstreams().get("api");

        assertThat(api.endpoints())
                .extracting(Endpoint::origin)
                .containsExactly("https://10.0.0.7:8443", "https://10.0.0.8:8443");
        ClientOptions client = api.client();
        assertThat(client.protocol()).isEqualTo(ClientProtocol.H2);
        assertThat(client.tls())
                .isEqualTo(ClientTlsOptions.builder()
                        .caBundle(ca)
                        .sniName("api.internal")
                        .clientCertificate(chain, key)
                        .build());
    }

    @Test
    void speaksTlsToHttpsEndpointsWithTheDefaultsAndCleartextOtherwise() {
        String yaml =
                """
                upstreams:
                  secure: { endpoints: [https://api.example.com], protocol: h2c }
                  plain: { endpoints: [127.0.0.1:9000] }
                  verified: { endpoints: [127.0.0.1:9443], tls: on }
                  unverified: { endpoints: [127.0.0.1:9443], tls: { verify: false } }
                routes:
                  - { match: { prefix: /a }, proxy: { upstream: secure } }
                """;

        Map<String, UpstreamConfig> upstreams =
                ConfigLoader.parse(yaml, "gw.yaml", Map.of()).upstreams();

        assertThat(upstreams.get("secure").endpoints().get(0).origin()).isEqualTo("https://api.example.com:443");
        assertThat(upstreams.get("secure").client().protocol()).isEqualTo(ClientProtocol.H2C);
        assertThat(upstreams.get("plain").endpoints().get(0).secure()).isFalse();
        assertThat(upstreams.get("plain").client()).isEqualTo(ClientOptions.ofDefault());
        assertThat(upstreams.get("verified").endpoints().get(0).secure()).isTrue();
        assertThat(upstreams.get("verified").client().tls()).isEqualTo(ClientTlsOptions.ofDefault());
        assertThat(upstreams.get("unverified").client().tls().verify()).isFalse();
    }

    @Test
    void reportsAnUnknownProtocolAndMissingFiles() {
        String yaml =
                """
                upstreams:
                  api:
                    endpoints: [10.0.0.7:8443]
                    protocol: h3
                    tls: { ca: /no/such/ca.pem, clientCertificate: { chain: /no/such/chain.pem } }
                routes:
                  - { match: { prefix: /api }, proxy: { upstream: api } }
                """;

        assertThat(ConfigValidationTest.errors(yaml))
                .anySatisfy(error -> assertThat(error).contains("'protocol' must be one of http1, h2, h2c, got 'h3'"))
                .anySatisfy(error -> assertThat(error).contains("'ca'").contains("names no readable file"))
                .anySatisfy(error -> assertThat(error).contains("has no 'key'"));
    }

    private Path pem(String name) throws IOException {
        return Files.writeString(dir.resolve(name), "-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n");
    }
}
