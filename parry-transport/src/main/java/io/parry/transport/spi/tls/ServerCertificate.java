package io.parry.transport.spi.tls;

import io.netty.handler.ssl.SslContext;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import javax.security.auth.x500.X500Principal;

/**
 * One certificate a listener serves, loaded: its SSL context and the host names its leaf covers (DNS
 * and IP subject alternative names; the subject's CN only when there are none). Immutable.
 */
public final class ServerCertificate {
    private static final int SAN_DNS = 2;
    private static final int SAN_IP = 7;

    private final SslContext context;
    private final X509Certificate leaf;
    private final List<String> names;
    final long version;

    ServerCertificate(SslContext context, X509Certificate leaf, long version) {
        this.context = context;
        this.leaf = leaf;
        this.names = namesOf(leaf);
        this.version = version;
    }

    /** The context new connections given this certificate use. */
    public SslContext context() {
        return context;
    }

    /** The leaf certificate. */
    public X509Certificate leaf() {
        return leaf;
    }

    /** The host names and IP addresses the leaf covers, lower case; wildcards as {@code *.example.com}. */
    public List<String> names() {
        return names;
    }

    /**
     * Whether the leaf covers {@code host} (a name or an IP address, without port or brackets, any
     * case): an exact name, or a wildcard standing for one leftmost label (RFC 6125, section 6.4.3).
     */
    public boolean covers(String host) {
        if (host.indexOf(':') >= 0) {
            host = normalizeIp(host);
        }
        for (String name : names) {
            if (name.regionMatches(true, 0, host, 0, Math.max(name.length(), host.length()))) {
                return true;
            }
            if (name.startsWith("*.")) {
                int dot = host.indexOf('.');
                if (dot > 0
                        && host.length() - dot == name.length() - 1
                        && host.regionMatches(true, dot, name, 1, name.length() - 1)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static List<String> namesOf(X509Certificate leaf) {
        List<String> names = new ArrayList<>();
        Collection<List<?>> alternatives;
        try {
            alternatives = leaf.getSubjectAlternativeNames();
        } catch (CertificateParsingException e) {
            alternatives = null;
        }
        if (alternatives != null) {
            for (List<?> alternative : alternatives) {
                Object type = alternative.get(0);
                if (type instanceof Integer kind && (kind == SAN_DNS || kind == SAN_IP)) {
                    names.add(normalizeIp(String.valueOf(alternative.get(1)).toLowerCase(Locale.ROOT)));
                }
            }
        }
        if (names.isEmpty()) {
            String cn = commonName(leaf.getSubjectX500Principal());
            if (cn != null) {
                names.add(cn.toLowerCase(Locale.ROOT));
            }
        }
        return List.copyOf(names);
    }

    /** One spelling of an IPv6 address (Java's full form), as a SAN and a Host header may differ. */
    private static String normalizeIp(String name) {
        if (name.indexOf(':') < 0) {
            return name;
        }
        try {
            return InetAddress.getByName(name).getHostAddress();
        } catch (UnknownHostException e) {
            return name;
        }
    }

    private static String commonName(X500Principal subject) {
        for (String part : subject.getName(X500Principal.RFC2253).split(",")) {
            if (part.startsWith("CN=")) {
                return part.substring(3);
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return "ServerCertificate" + names;
    }
}
