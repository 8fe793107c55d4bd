package io.parry.server;

import static java.util.Objects.requireNonNull;

/**
 * How a listener reads request paths before anything routes them, so that filters, the router and a
 * proxy's upstream all see one spelling of a path. A rule on {@code /a/internal} holds only if no other
 * spelling of that path reaches the upstream: {@code /a/internal;x=1/y} (Tomcat and Spring drop the
 * parameter), {@code /a/internal%2Fy} (some upstreams decode the slash), {@code /a/x/..;/internal}.
 *
 * <p>Every listener, whatever these options, rejects with 400 a path holding a control character, a
 * backslash, {@code %00} or another percent-encoded control byte, a malformed escape, or escaped bytes
 * that are not UTF-8 (an overlong {@code %C0%AF} for {@code /} included, RFC 3629); decodes
 * percent-encoded unreserved characters ({@code /a/%69nternal} is {@code /a/internal}, RFC 3986,
 * section 6.2.2.2) and writes other escapes in upper case; merges runs of slashes; and resolves
 * {@code .} and {@code ..} segments, encoded or not (RFC 3986, section 5.2.4), answering 400 when a
 * {@code ..} would climb above the root. Parameters are handled before dot segments are resolved, so
 * {@code ..;} cannot survive as a segment. The request's target is then the normalised path and the
 * query as received; a path that is already normal costs one scan and no copy.
 *
 * <p>These options choose what may vary: encoded slashes and backslashes ({@code %2F}, {@code %5C},
 * either case), and {@code ;} parameters in segments. The defaults reject both with 400, as Spring
 * Security's strict firewall does. Immutable and thread-safe.
 *
 * <pre>{@code
 * Server.builder()
 *         .options(o -> o.pathNormalization(PathNormalization.builder()
 *                 .pathParameters(PathNormalization.PathParameterAction.STRIP)
 *                 .build()))
 * }</pre>
 */
public final class PathNormalization {
    private static final PathNormalization DEFAULTS = builder().build();

    private final EscapedSlashAction escapedSlashes;
    private final PathParameterAction pathParameters;

    private PathNormalization(Builder builder) {
        this.escapedSlashes = builder.escapedSlashes;
        this.pathParameters = builder.pathParameters;
    }

    /** What to do with {@code %2F} and {@code %5C} in a path, as Envoy's {@code path_with_escaped_slashes_action}. */
    public enum EscapedSlashAction {
        /** Leave them encoded: the path segment holds them, and an upstream that decodes them may read another path. */
        KEEP_UNCHANGED,
        /** Answer 400 and close the connection (the default). */
        REJECT_REQUEST,
        /**
         * Answer 307 with the path they stand for in {@code Location} (each becomes {@code /}), so the
         * client asks again with the spelling that will be routed and forwarded; the connection closes.
         */
        UNESCAPE_AND_REDIRECT,
        /** Read each as {@code /} and route and forward that path. */
        UNESCAPE_AND_FORWARD
    }

    /** What to do with a {@code ;} parameter in a path segment, such as {@code ;jsessionid=1} or {@code ..;}. */
    public enum PathParameterAction {
        /** Leave it in the segment: {@code /a;x/b} is routed and forwarded as it is. */
        KEEP_UNCHANGED,
        /** Drop it up to the end of its segment, as Tomcat does: {@code /a;x/b} is {@code /a/b}. */
        STRIP,
        /** Answer 400 and close the connection (the default). */
        REJECT_REQUEST
    }

    /** The defaults: encoded slashes and path parameters rejected. */
    public static PathNormalization ofDefault() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        return new Builder().escapedSlashes(escapedSlashes).pathParameters(pathParameters);
    }

    /** What is done with {@code %2F} and {@code %5C}. */
    public EscapedSlashAction escapedSlashes() {
        return escapedSlashes;
    }

    /** What is done with {@code ;} parameters. */
    public PathParameterAction pathParameters() {
        return pathParameters;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PathNormalization that
                && escapedSlashes == that.escapedSlashes
                && pathParameters == that.pathParameters;
    }

    @Override
    public int hashCode() {
        return 31 * escapedSlashes.hashCode() + pathParameters.hashCode();
    }

    @Override
    public String toString() {
        return "PathNormalization{escapedSlashes=" + escapedSlashes + ", pathParameters=" + pathParameters + "}";
    }

    /** Builds {@link PathNormalization}; not thread-safe. */
    public static final class Builder {
        private EscapedSlashAction escapedSlashes = EscapedSlashAction.REJECT_REQUEST;
        private PathParameterAction pathParameters = PathParameterAction.REJECT_REQUEST;

        private Builder() {}

        /** Sets what is done with {@code %2F} and {@code %5C} (default {@link EscapedSlashAction#REJECT_REQUEST}). */
        public Builder escapedSlashes(EscapedSlashAction action) {
            this.escapedSlashes = requireNonNull(action, "escapedSlashes");
            return this;
        }

        /** Sets what is done with {@code ;} parameters (default {@link PathParameterAction#REJECT_REQUEST}). */
        public Builder pathParameters(PathParameterAction action) {
            this.pathParameters = requireNonNull(action, "pathParameters");
            return this;
        }

        /** The options. */
        public PathNormalization build() {
            return new PathNormalization(this);
        }
    }
}
