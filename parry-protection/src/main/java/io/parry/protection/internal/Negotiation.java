package io.parry.protection.internal;

/**
 * What {@code Accept-Encoding} allows: the coding to use ({@code null}: none), and whether the client
 * refused the identity coding, so that a small body is compressed anyway. One shared instance each.
 *
 * @param coding the chosen coding, or {@code null} to send the body as it is
 * @param identityRefused whether {@code identity;q=0} (or {@code *;q=0}) was sent
 */
public record Negotiation(ContentCoding coding, boolean identityRefused) {
    /** No coding; the body as it is. */
    public static final Negotiation IDENTITY = new Negotiation(null, false);
    /** No acceptable coding, and identity refused: the body goes as it is all the same (RFC 9110, 12.5.3). */
    public static final Negotiation IDENTITY_REFUSED = new Negotiation(null, true);

    private static final Negotiation[] CODED = {
        new Negotiation(ContentCoding.GZIP, false),
        new Negotiation(ContentCoding.GZIP, true),
        new Negotiation(ContentCoding.DEFLATE, false),
        new Negotiation(ContentCoding.DEFLATE, true)
    };

    static Negotiation of(ContentCoding coding, boolean identityRefused) {
        return CODED[coding.ordinal() * 2 + (identityRefused ? 1 : 0)];
    }
}
