package io.parry.gateway.internal.config;

import io.parry.proxy.PathRewrite;

/**
 * How a proxy route makes the upstream path (YAML {@code stripPrefix}, {@code replacePrefix} or
 * {@code pathTemplate}), as in {@link PathRewrite}.
 *
 * @param kind which rewrite
 * @param path the prefix to strip or replace, or the template; {@code null} for {@link Kind#NONE}
 * @param replacement what replaces the prefix for {@link Kind#REPLACE_PREFIX}; otherwise {@code null}
 */
public record PathRewriteConfig(Kind kind, String path, String replacement) {
    /** The path as it came. */
    public static final PathRewriteConfig NONE = new PathRewriteConfig(Kind.NONE, null, null);

    /** The kinds of rewrite. */
    public enum Kind {
        /** The path as it came. */
        NONE,
        /** {@code stripPrefix: /api}. */
        STRIP_PREFIX,
        /** {@code replacePrefix: {prefix: /api, with: /v2}}. */
        REPLACE_PREFIX,
        /** {@code pathTemplate: /users/{id}}, filled from the route's path parameters. */
        TEMPLATE
    }

    /** This rewrite as a proxy option. */
    public PathRewrite toPathRewrite() {
        switch (kind) {
            case STRIP_PREFIX:
                return PathRewrite.stripPrefix(path);
            case REPLACE_PREFIX:
                return PathRewrite.replacePrefix(path, replacement);
            case TEMPLATE:
                return PathRewrite.template(path);
            default:
                return PathRewrite.none();
        }
    }
}
