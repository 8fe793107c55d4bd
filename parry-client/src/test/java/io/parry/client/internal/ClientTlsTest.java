package io.parry.client.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.ReferenceCountedOpenSslContext;
import io.parry.client.ClientOptions;
import io.parry.client.ClientTlsOptions;
import org.junit.jupiter.api.Test;

class ClientTlsTest {
    @Test
    void givesEachOpenSslUpstreamConnectionAHandshakeBufferOf32Bytes() {
        assumeTrue(OpenSsl.isAvailable(), "netty-tcnative-boringssl-static did not load");
        ClientTls tls = new ClientTls(ClientOptions.builder()
                .tls(ClientTlsOptions.builder().verify(false).build())
                .build());

        assertThat(((ReferenceCountedOpenSslContext) tls.context()).getBioNonApplicationBufferSize())
                .isEqualTo(32);
    }
}
