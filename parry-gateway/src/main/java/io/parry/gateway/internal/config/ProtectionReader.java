package io.parry.gateway.internal.config;

import io.parry.auth.JwksSource;
import io.parry.compression.zstd.ZstdCoding;
import io.parry.protection.CompressionFilter;
import io.parry.protection.ContentCoding;
import io.parry.protection.IpRulesFilter;
import io.parry.protection.RequestDecompressionFilter;
import io.parry.protection.SecurityHeadersFilter;
import io.parry.ratelimit.LocalRateLimiter;
import io.parry.ratelimit.RateLimit;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads what protects a route ({@code ipRules}, {@code cors}, {@code auth}, {@code securityHeaders},
 * {@code compression}),
 * in a route or in the file's {@code defaults}. A key a route leaves out takes the default; {@code
 * off} turns the default off. Each part is checked by building the library's own filter from it, so
 * the file and Java code are refused for the same reasons, reported with the line.
 */
final class ProtectionReader {
    static final List<String> KEYS = List.of("ipRules", "cors", "auth", "securityHeaders", "compression");
    static final List<String> IP_RULES_KEYS = List.of("allow", "deny");
    static final List<String> CORS_KEYS =
            List.of("allowOrigins", "allowMethods", "allowHeaders", "exposeHeaders", "allowCredentials", "maxAge");
    static final List<String> AUTH_SCHEMES = List.of("jwt", "apiKey", "basic");
    static final List<String> AUTH_KEYS = List.of("jwt", "apiKey", "basic", "failureLimit");
    static final List<String> FAILURE_LIMIT_KEYS = List.of("rate", "period", "burst", "maxKeys");
    static final List<String> JWT_KEYS = List.of(
            "jwksUrl",
            "issuer",
            "audiences",
            "algorithms",
            "clockSkew",
            "requiredScopes",
            "requiredClaims",
            "forwardClaims",
            "refreshInterval",
            "minRefreshInterval");
    static final List<String> API_KEY_KEYS = List.of("header", "queryParam", "keys", "keysFile", "forwardClaims");
    static final List<String> BASIC_KEYS = List.of("realm", "users", "usersFile", "forwardClaims");
    static final List<String> SECURITY_HEADERS_KEYS =
            List.of("hsts", "hstsIncludeSubDomains", "noSniff", "frameOptions", "referrerPolicy");
    static final List<String> COMPRESSION_KEYS =
            List.of("level", "minSize", "contentTypes", "encodings", "eventStreams", "requestDecompression");
    static final List<String> REQUEST_DECOMPRESSION_KEYS = List.of("maxSize");
    private static final JwksSource NO_KEYS = JwksSource.ofJson("{\"keys\":[]}");

    private final List<String> trustedProxies;
    private final Path baseDirectory;

    /**
     * @param trustedProxies the file's {@code forwarding.trustedProxies}, which IP rules use too
     * @param baseDirectory where relative {@code keysFile} and {@code usersFile} paths start
     */
    ProtectionReader(List<String> trustedProxies, Path baseDirectory) {
        this.trustedProxies = trustedProxies;
        this.baseDirectory = baseDirectory;
    }

    RouteProtection read(Section section, RouteProtection defaults) {
        boolean ownAuth = section.has("auth");
        Section auth = ownAuth && !section.isOff("auth")
                ? section.section("auth", section.context() + " auth", AUTH_KEYS)
                : null;
        return new RouteProtection(
                section.has("ipRules") ? (section.isOff("ipRules") ? null : ipRules(section)) : defaults.ipRules(),
                section.has("cors") ? (section.isOff("cors") ? null : cors(section)) : defaults.cors(),
                ownAuth ? auth(auth) : defaults.auth(),
                ownAuth ? failureLimit(auth) : defaults.authFailures(),
                section.has("securityHeaders")
                        ? (section.isOff("securityHeaders") ? null : securityHeaders(section))
                        : defaults.securityHeaders(),
                section.has("compression")
                        ? (section.isOff("compression") ? null : compression(section))
                        : defaults.compression());
    }

    private IpRulesFilter ipRules(Section parent) {
        Section section = parent.section("ipRules", parent.context() + " ipRules", IP_RULES_KEYS);
        if (section == null) {
            return null;
        }
        int errorsBefore = section.errors().count();
        List<String> allow = section.strings("allow", "an IP address or CIDR block such as 10.0.0.0/8");
        List<String> deny = section.strings("deny", "an IP address or CIDR block such as 10.0.0.0/8");
        if (allow.isEmpty() && deny.isEmpty() && section.errors().count() == errorsBefore) {
            section.error(
                    section.location(),
                    section.context() + " has neither 'allow' nor 'deny' (expected a list of"
                            + " addresses or CIDR blocks in one of them)");
        }
        return section.build(
                errorsBefore,
                () -> IpRulesFilter.builder()
                        .allow(allow)
                        .deny(deny)
                        .trustedProxies(trustedProxies)
                        .build(),
                null);
    }

    private CorsConfig cors(Section parent) {
        Section section = parent.section("cors", parent.context() + " cors", CORS_KEYS);
        if (section == null) {
            return null;
        }
        int errorsBefore = section.errors().count();
        List<String> origins = section.strings("allowOrigins", "an origin such as https://app.example, or *");
        if (origins.isEmpty() && section.errors().count() == errorsBefore) {
            section.missing("allowOrigins", "a list of origins such as https://app.example, or [\"*\"]");
        }
        CorsConfig cors = new CorsConfig(
                origins,
                section.strings("allowMethods", "a method such as PUT"),
                section.strings("allowHeaders", "a field name such as content-type, or *"),
                section.strings("exposeHeaders", "a field name such as location"),
                section.bool("allowCredentials", false),
                section.has("maxAge") ? section.duration("maxAge", null) : null);
        return section.build(
                errorsBefore,
                () -> {
                    cors.toFilter();
                    return cors;
                },
                null);
    }

    private AuthConfig auth(Section section) {
        if (section == null) {
            return null;
        }
        String kind = null;
        for (String key : AUTH_SCHEMES) {
            if (section.has(key)) {
                if (kind != null) {
                    section.error(
                            section.keyLocation(key),
                            section.context() + " has both '" + kind + "' and '" + key
                                    + "' (expected exactly one of jwt, apiKey, basic)");
                    return null;
                }
                kind = key;
            }
        }
        if (kind == null) {
            section.error(
                    section.location(), section.context() + " names no scheme (expected one of jwt, apiKey, basic)");
            return null;
        }
        return switch (kind) {
            case "jwt" -> jwt(section);
            case "apiKey" -> apiKey(section);
            default -> basic(section);
        };
    }

    /**
     * The {@code failureLimit} under {@code auth}, or {@code null}: a token bucket of failures per client
     * address after the trusted proxies (never a key the client picks per request, such as a header).
     */
    private AuthFailureLimitConfig failureLimit(Section auth) {
        Section section = auth == null
                ? null
                : auth.section("failureLimit", auth.context() + " failureLimit", FAILURE_LIMIT_KEYS);
        if (section == null) {
            return null;
        }
        int errorsBefore = section.errors().count();
        RateLimit.Builder limit =
                RateLimitReader.bucket(section, "the failures allowed per period, such as 10", Duration.ofMinutes(1));
        int maxKeys = section.integer("maxKeys", 1, Integer.MAX_VALUE, LocalRateLimiter.DEFAULT_MAX_KEYS);
        return section.build(
                errorsBefore,
                () -> {
                    AuthFailureLimitConfig config =
                            new AuthFailureLimitConfig(limit.build(), maxKeys, List.copyOf(trustedProxies));
                    config.toLimit();
                    return config;
                },
                null);
    }

    private AuthConfig.Jwt jwt(Section auth) {
        Section section = auth.section("jwt", auth.context() + " jwt", JWT_KEYS);
        if (section == null) {
            return null;
        }
        int errorsBefore = section.errors().count();
        String url = section.requiredString("jwksUrl", "the http URL of the issuer's JWK Set");
        URI jwksUrl = null;
        if (url != null) {
            try {
                jwksUrl = URI.create(url);
                JwksSource.builder(jwksUrl).build();
            } catch (IllegalArgumentException e) {
                section.invalid(
                        "jwksUrl",
                        "'jwksUrl' must be an absolute http URL such as"
                                + " http://idp:8080/.well-known/jwks.json, got '" + url + "'");
            }
        }
        AuthConfig.Jwt jwt = new AuthConfig.Jwt(
                jwksUrl,
                section.has("issuer") ? section.string("issuer", null) : null,
                section.strings("audiences", "an audience"),
                section.has("algorithms")
                        ? section.strings("algorithms", "an algorithm such as ES256")
                        : List.of("ES256", "RS256"),
                section.duration("clockSkew", Duration.ofSeconds(60)),
                section.strings("requiredScopes", "a scope"),
                section.stringMap("requiredClaims", "a claim value"),
                forwardClaims(section),
                section.positiveDuration("refreshInterval", Duration.ofMinutes(5)),
                section.duration("minRefreshInterval", Duration.ofSeconds(10)));
        return section.build(
                errorsBefore,
                () -> {
                    jwt.toFilter(NO_KEYS);
                    return jwt;
                },
                null);
    }

    private AuthConfig.ApiKey apiKey(Section auth) {
        Section section = auth.section("apiKey", auth.context() + " apiKey", API_KEY_KEYS);
        if (section == null) {
            return null;
        }
        int errorsBefore = section.errors().count();
        String header = section.string("header", "x-api-key");
        String queryParam = section.has("queryParam") ? section.string("queryParam", null) : null;
        Map<String, String> keys = section.stringMap("keys", "a hash such as sha256:<hex> or $2b$...");
        Path file = secrets(section, "keys", "keysFile", keys);
        AuthConfig.ApiKey apiKey = new AuthConfig.ApiKey(header, queryParam, keys, file, forwardClaims(section));
        return section.build(
                errorsBefore,
                () -> {
                    apiKey.toFilter();
                    return apiKey;
                },
                null);
    }

    private AuthConfig.Basic basic(Section auth) {
        Section section = auth.section("basic", auth.context() + " basic", BASIC_KEYS);
        if (section == null) {
            return null;
        }
        int errorsBefore = section.errors().count();
        String realm = section.string("realm", "parry");
        Map<String, String> users = section.stringMap("users", "a bcrypt ($2b$...) or Argon2id ($argon2id$...) hash");
        Path file = secrets(section, "users", "usersFile", users);
        AuthConfig.Basic basic = new AuthConfig.Basic(realm, users, file, forwardClaims(section));
        return section.build(
                errorsBefore,
                () -> {
                    basic.toFilter();
                    return basic;
                },
                null);
    }

    /** The file of secrets, checked to exist and parse now; an error unless exactly one of inline and file is given. */
    private Path secrets(Section section, String inlineKey, String fileKey, Map<String, String> inline) {
        boolean hasInline = section.has(inlineKey);
        boolean hasFile = section.has(fileKey);
        if (hasInline == hasFile) {
            section.error(
                    section.location(),
                    section.context() + (hasInline ? " has both" : " has neither") + " '" + inlineKey + "' and '"
                            + fileKey + "' (expected exactly one)");
            return null;
        }
        if (!hasFile) {
            return null;
        }
        String text = section.string(fileKey, "");
        Path file = baseDirectory.resolve(text);
        if (!Files.isReadable(file)) {
            section.invalid(fileKey, "'" + fileKey + "' must name a readable file, got '" + text + "' (" + file + ")");
            return null;
        }
        return file;
    }

    private static Map<String, String> forwardClaims(Section section) {
        Map<String, String> claims = section.stringMap("forwardClaims", "a request field name such as X-User-Id");
        claims.forEach((claim, field) -> {
            if (!HeaderSyntax.isName(field)) {
                section.invalid(
                        "forwardClaims",
                        "'" + field + "' in 'forwardClaims' is not a field name (expected a"
                                + " token such as X-User-Id)");
            }
        });
        return claims;
    }

    private static CompressionConfig compression(Section parent) {
        Section section = parent.section("compression", parent.context() + " compression", COMPRESSION_KEYS);
        if (section == null) {
            return null;
        }
        int errorsBefore = section.errors().count();
        int level = section.integer("level", 1, 9, 6);
        CompressionFilter.Builder responses = CompressionFilter.ofDefault().toBuilder()
                .encodings(section.has("encodings") ? encodings(section, level) : defaultEncodings(level))
                .minSize(section.size("minSize", 0, Long.MAX_VALUE, 1024))
                .eventStreams(section.bool("eventStreams", false));
        if (section.has("contentTypes")) {
            responses.contentTypes(section.strings("contentTypes", "a media type such as application/json"));
        }
        RequestDecompressionFilter requests = null;
        if (section.has("requestDecompression") && !section.isOff("requestDecompression")) {
            Section inner = section.section(
                    "requestDecompression", section.context() + " requestDecompression", REQUEST_DECOMPRESSION_KEYS);
            if (inner != null) {
                requests = RequestDecompressionFilter.of(
                        inner.size("maxSize", 1, Long.MAX_VALUE, 8 << 20), readableEncodings());
            }
        }
        RequestDecompressionFilter decompression = requests;
        return section.build(errorsBefore, () -> new CompressionConfig(responses.build(), decompression), null);
    }

    /**
     * The codings named under {@code encodings}, preferred first: zstd (at its default level), gzip and
     * deflate (at the section's zlib level); zstd only where zstd-jni's native library loads.
     */
    private static List<ContentCoding> encodings(Section section, int level) {
        List<ContentCoding> codings = new ArrayList<>();
        for (YamlScalar scalar : section.scalars("encodings", "zstd, gzip or deflate")) {
            switch (scalar.text()) {
                case "gzip" -> codings.add(ContentCoding.gzip(level));
                case "deflate" -> codings.add(ContentCoding.deflate(level));
                case "zstd" -> {
                    if (ZstdCoding.isAvailable()) {
                        codings.add(ZstdCoding.ofDefault());
                    } else {
                        section.errors()
                                .add(
                                        scalar.location(),
                                        "'zstd' in 'encodings' needs zstd-jni's native library, which does not"
                                                + " load on this platform (use gzip)");
                    }
                }
                default -> section.errors()
                        .add(
                                scalar.location(),
                                "each entry of 'encodings' must be zstd, gzip or deflate, got '" + scalar.text() + "'");
            }
        }
        return codings;
    }

    /** zstd then gzip where zstd loads: zstd wins a tie, compressing as well as gzip for less CPU. */
    private static List<ContentCoding> defaultEncodings(int level) {
        return ZstdCoding.isAvailable()
                ? List.of(ZstdCoding.ofDefault(), ContentCoding.gzip(level))
                : List.of(ContentCoding.gzip(level));
    }

    /** The codings request bodies may come in: gzip, deflate and, where it loads, zstd. */
    private static List<ContentCoding> readableEncodings() {
        List<ContentCoding> codings = new ArrayList<>(List.of(ContentCoding.gzip(6), ContentCoding.deflate(6)));
        if (ZstdCoding.isAvailable()) {
            codings.add(ZstdCoding.ofDefault());
        }
        return codings;
    }

    private SecurityHeadersFilter securityHeaders(Section parent) {
        Section section =
                parent.section("securityHeaders", parent.context() + " securityHeaders", SECURITY_HEADERS_KEYS);
        if (section == null) {
            return null;
        }
        int errorsBefore = section.errors().count();
        SecurityHeadersFilter d = SecurityHeadersFilter.ofDefault();
        Duration hsts = section.has("hsts") && !section.isOff("hsts") ? section.duration("hsts", null) : null;
        SecurityHeadersFilter.Builder headers = d.toBuilder()
                .hsts(hsts, section.bool("hstsIncludeSubDomains", false))
                .noSniff(section.bool("noSniff", true))
                .frameOptions(section.isOff("frameOptions") ? "" : section.string("frameOptions", "DENY"))
                .referrerPolicy(section.isOff("referrerPolicy") ? "" : section.string("referrerPolicy", "no-referrer"));
        return section.build(errorsBefore, headers::build, null);
    }
}
