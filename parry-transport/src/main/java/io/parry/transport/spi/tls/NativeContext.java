package io.parry.transport.spi.tls;

import io.netty.handler.ssl.ReferenceCountedOpenSslContext;
import io.netty.handler.ssl.SslContext;
import java.lang.reflect.Field;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The netty-tcnative context behind a Netty OpenSSL context, for the few settings Netty does not offer.
 *
 * <p>tcnative's {@code SSLContext} calls take tcnative's own context, which Netty keeps in a protected field: both
 * {@code sslCtxPointer()} and {@code context()} give BoringSSL's {@code SSL_CTX}, which those calls cannot take. The
 * field is read when a context is built, never per connection. When it cannot be read (another Netty), the
 * settings that need it are skipped and the context works as Netty made it.
 */
final class NativeContext {
    private NativeContext() {}

    /** Whether {@link #of} can read tcnative's context; call only when tcnative's classes are there. */
    static boolean reachable() {
        return CtxField.FIELD != null;
    }

    /** tcnative's context of an OpenSSL {@code context}, or 0 when it is not one or the field cannot be read. */
    static long of(SslContext context) {
        if (!(context instanceof ReferenceCountedOpenSslContext) || CtxField.FIELD == null) {
            return 0;
        }
        try {
            return CtxField.FIELD.getLong(context);
        } catch (IllegalAccessException e) {
            return 0;
        }
    }

    /** Holds the field, looked up on first use: loading it needs tcnative's classes, an optional dependency. */
    private static final class CtxField {
        private static final Logger log = LoggerFactory.getLogger(NativeContext.class);
        static final Field FIELD = lookUp();

        private static Field lookUp() {
            try {
                Field field = ReferenceCountedOpenSslContext.class.getDeclaredField("ctx");
                field.setAccessible(true);
                return field;
            } catch (ReflectiveOperationException | RuntimeException e) {
                log.debug("No access to tcnative's context: OpenSSL contexts keep Netty's settings", e);
                return null;
            }
        }
    }
}
