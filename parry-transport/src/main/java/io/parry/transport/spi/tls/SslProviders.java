package io.parry.transport.spi.tls;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TLS implementation Parry uses: OpenSSL (BoringSSL from {@code netty-tcnative-boringssl-static})
 * when it loads, faster and with its memory off the heap, else the JDK's. Logged once, on first use.
 */
public final class SslProviders {
    private static final Logger log = LoggerFactory.getLogger(SslProviders.class);

    private SslProviders() {}

    /** OpenSSL when available, else the JDK provider. */
    public static SslProvider preferred() {
        return Chosen.PROVIDER;
    }

    /** Holds the choice, made and logged when first asked for. */
    private static final class Chosen {
        static final SslProvider PROVIDER = choose();

        private static SslProvider choose() {
            if (OpenSsl.isAvailable()) {
                log.info("TLS by OpenSSL ({})", OpenSsl.versionString());
                return SslProvider.OPENSSL;
            }
            log.info(
                    "TLS by the JDK provider (OpenSSL did not load: {})",
                    String.valueOf(OpenSsl.unavailabilityCause()));
            return SslProvider.JDK;
        }
    }
}
