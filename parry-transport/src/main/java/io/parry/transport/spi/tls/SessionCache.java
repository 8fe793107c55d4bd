package io.parry.transport.spi.tls;

import io.netty.handler.ssl.OpenSslSessionContext;
import io.netty.handler.ssl.SslContext;
import java.util.List;

/**
 * Whether a server context keeps a session cache: not when tickets serve resumption.
 *
 * <p>With OpenSSL, Netty's server cache holds a native session for each full handshake (up to 20,480 of them, for
 * 5 minutes), about 9 KiB of memory outside the heap each: at 2,000 idle connections that was more than half of what
 * a TLS connection cost. Netty turns tickets on for TLS 1.2 as well as 1.3 whenever a context allows TLS 1.3, and
 * BoringSSL resumes TLS 1.3 only by tickets, so the cache then serves no resumption: it is turned off. A TLS
 * 1.2-only context, whose connections have no tickets (Netty's default, like the JDK's), keeps it. The JDK provider
 * is left as it is: its server keeps no session for a stateless ticket.
 */
final class SessionCache {
    /** Netty's and the JDK's switch for tickets on the server, read the way Netty reads it for TLS 1.3. */
    private static final String TICKETS_PROPERTY = "jdk.tls.server.enableSessionTicketExtension";

    private SessionCache() {}

    /** Turns the session cache of an OpenSSL server context off when its connections resume by tickets. */
    static void configure(SslContext context, List<String> protocols) {
        if (context.sessionContext() instanceof OpenSslSessionContext sessions && ticketsResume(protocols)) {
            sessions.setSessionCacheEnabled(false);
        }
    }

    private static boolean ticketsResume(List<String> protocols) {
        return (protocols.isEmpty() || protocols.contains("TLSv1.3"))
                && !"false".equals(System.getProperty(TICKETS_PROPERTY));
    }
}
