package io.parry.gateway.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.parry.client.Endpoint;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SubstitutionTest {

    @Test
    void replacesAPlaceholderWithTheVariable() {
        assertThat(parse("version: ${RELEASE}\n", Map.of("RELEASE", "r42")).version())
                .isEqualTo("r42");
    }

    @Test
    void usesTheDefaultWhenTheVariableIsNotSet() {
        assertThat(parse("version: ${RELEASE:dev}\n", Map.of()).version()).isEqualTo("dev");
    }

    @Test
    void prefersTheVariableToTheDefault() {
        assertThat(parse("version: ${RELEASE:dev}\n", Map.of("RELEASE", "r42")).version())
                .isEqualTo("r42");
    }

    @Test
    void keepsColonsInTheDefault() {
        GatewayConfig config = parse("upstreams:\n  a: { endpoints: [\"${A:http://10.0.0.1:81}\"] }\n", Map.of());

        assertThat(config.upstreams().get("a").endpoints()).containsExactly(Endpoint.of("10.0.0.1", 81));
    }

    @Test
    void substitutesInsideFlowMappingsAndPartOfAValue() {
        GatewayConfig config = parse(
                "listener: { host: ${HOST:127.0.0.1}, port: ${PORT} }\n"
                        + "upstreams:\n  a: { endpoints: [\"${UP_HOST}:${UP_PORT:9000}\"] }\n",
                Map.of("PORT", "8081", "UP_HOST", "10.1.2.3"));

        assertThat(config.listener().host()).isEqualTo("127.0.0.1");
        assertThat(config.listener().port()).isEqualTo(8081);
        assertThat(config.upstreams().get("a").endpoints()).containsExactly(Endpoint.of("10.1.2.3", 9000));
    }

    @Test
    void escapesTheValueForTheQuotingAroundIt() {
        GatewayConfig config = parse(
                """
                routes:
                  - match: { path: /a }
                    respond: { body: "say \\"${WORDS}\\"", headers: { X-Quote: '${WORDS}' } }
                """,
                Map.of("WORDS", "it's \"quoted\" \\ here"));

        RespondAction respond = (RespondAction) config.routes().get(0).action();
        assertThat(respond.body()).isEqualTo("say \"it's \"quoted\" \\ here\"");
        assertThat(respond.headers()).containsEntry("X-Quote", "it's \"quoted\" \\ here");
    }

    @Test
    void substitutesInBlockScalarsWhereQuotesAndHashesAreText() {
        GatewayConfig config = parse(
                """
                routes:
                  - match: { path: /a }
                    respond:
                      body: |
                        "${GREETING}" isn't a comment # ${NAME}
                        'still text
                      headers: { X-Name: ${NAME} }  # ${UNSET} in a comment
                """,
                Map.of("GREETING", "hello", "NAME", "parry"));

        RespondAction respond = (RespondAction) config.routes().get(0).action();
        assertThat(respond.body()).isEqualTo("\"hello\" isn't a comment # parry\n'still text\n");
        assertThat(respond.headers()).containsEntry("X-Name", "parry");
    }

    @Test
    void leavesCommentsAlone() {
        GatewayConfig config =
                parse("# set ${UNSET} to change the version\nversion: v1 # not ${UNSET} either\n", Map.of());

        assertThat(config.version()).isEqualTo("v1");
    }

    @Test
    void writesALiteralPlaceholderForADoubledDollar() {
        assertThat(parse("version: $${NOT_A_VARIABLE}\n", Map.of()).version()).isEqualTo("${NOT_A_VARIABLE}");
    }

    @Test
    void reportsAMissingVariableAtThePlaceholder() {
        assertThat(errors("listener:\n  port: ${GATEWAY_PORT}\n", Map.of()))
                .containsExactly("gw.yaml:2:9: environment variable 'GATEWAY_PORT' is not set and the placeholder has"
                        + " no default (set it, or write ${GATEWAY_PORT:default})");
    }

    @Test
    void reportsEveryMissingVariableAndKeepsValidating() {
        assertThat(errors("version: ${A}\nlistener: { port: ${B} }\nlimits: { maxConnections: 0 }\n", Map.of()))
                .containsExactly(
                        "gw.yaml:1:10: environment variable 'A' is not set and the placeholder has no default (set it,"
                                + " or write ${A:default})",
                        "gw.yaml:2:19: environment variable 'B' is not set and the placeholder has no default (set it,"
                                + " or write ${B:default})",
                        "gw.yaml:3:27: 'maxConnections' must be an integer of at least 1, got '0'");
    }

    @Test
    void reportsAnUnclosedPlaceholder() {
        assertThat(errors("version: ${RELEASE\n", Map.of()))
                .containsExactly(
                        "gw.yaml:1:10: unclosed placeholder '${RELEASE' (expected ${NAME} or ${NAME:default})");
    }

    @Test
    void reportsAnInvalidVariableName() {
        assertThat(errors("version: ${MY-VERSION}\n", Map.of()))
                .containsExactly("gw.yaml:1:10: invalid placeholder '${MY-VERSION}' (expected ${NAME} or"
                        + " ${NAME:default}, NAME made of letters, digits and _)");
    }

    @Test
    void reportsAVariableHoldingALineBreak() {
        assertThat(errors("version: ${RELEASE}\n", Map.of("RELEASE", "a\nb")))
                .containsExactly("gw.yaml:1:10: environment variable 'RELEASE' holds a line break, which a placeholder"
                        + " cannot insert");
    }

    @Test
    void reportsLaterErrorsOnTheLineWhereTheUserWroteThem() {
        assertThat(errors(
                        "listener: { host: ${HOST}, port: abc }\n", Map.of("HOST", "a-much-longer-host-name.example")))
                .containsExactly("gw.yaml:1:34: 'port' must be an integer from 0 to 65535, got 'abc'");
        assertThat(errors("listener: { host: ${HOST:x}, port: ${PORT:abc} }\n", Map.of()))
                .containsExactly("gw.yaml:1:36: 'port' must be an integer from 0 to 65535, got 'abc'");
    }

    private static GatewayConfig parse(String yaml, Map<String, String> env) {
        return ConfigLoader.parse(yaml, "gw.yaml", env);
    }

    private static List<String> errors(String yaml, Map<String, String> env) {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> parse(yaml, env));
        assertThat(e).as("a ConfigException").isNotNull();
        return e.errors().stream().map(ConfigError::toString).collect(Collectors.toList());
    }
}
