package io.parry.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.parry.annotations.ControllerRoutes;
import io.parry.auth.ApiKeyFilter;
import io.parry.auth.BasicAuthFilter;
import io.parry.auth.Credentials;
import io.parry.auth.JwksSource;
import io.parry.auth.JwtFilter;
import io.parry.http.HttpResponse;
import io.parry.server.Server;
import io.parry.server.routing.Router;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The document of an annotated controller and a functional route, served by a real server. */
class OpenApiTest {
    private static final HttpClient CLIENT =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final Credentials SECRETS = Credentials.of(Map.of("ci", "sha256:" + "0".repeat(64)));
    private static final ApiKeyFilter API_KEY =
            ApiKeyFilter.builder(SECRETS).queryParam("api_key").build();
    private static final BasicAuthFilter BASIC =
            BasicAuthFilter.builder(SECRETS).build();
    private static final JwtFilter JWT = JwtFilter.builder(JwksSource.ofJson("{\"keys\":[]}"))
            .issuer("https://idp.example")
            .audiences(List.of("pets"))
            .requiredScopes(List.of("pets:admin"))
            .build();
    private static Router router;
    private static OpenApi openApi;
    private static Server server;

    @BeforeAll
    static void start() {
        ControllerRoutes pets = PetControllerRoutes.of(new PetController()).named(Map.of("admin", JWT));
        ControllerRoutes owners =
                OwnerControllerRoutes.of(new OwnerController()).with(API_KEY);
        Router.Builder builder = Router.builder()
                .get("/health", (ctx, request) -> HttpResponse.ofText("up").toStage())
                .get("/admin", (ctx, request) -> HttpResponse.ofText("settings").toStage(), route -> route.filter(JWT)
                        .filter(BASIC));
        pets.addTo(builder);
        owners.addTo(builder);
        openApi = OpenApi.builder()
                .title("Pets")
                .version("2.1")
                .controller(pets)
                .controller(owners)
                .route(
                        "GET",
                        "/health",
                        RouteDescription.of("Says whether the service is up.").output(Pet.class))
                .route(
                        "GET",
                        "/admin",
                        RouteDescription.of("Shows the settings.").filters(JWT, BASIC))
                .build();
        openApi.addTo(builder);
        router = builder.build();
        server = Server.builder().port(0).handler(router).build().start();
    }

    @AfterAll
    static void stop() {
        server.stop(Duration.ofSeconds(1));
    }

    @Test
    void listsTheSameOperationsAsTheLiveRouteTable() {
        List<String> served = router.routes().stream()
                .filter(route -> !route.pattern().startsWith("/openapi.")
                        && !route.pattern().startsWith("/docs"))
                .map(route -> route.method() + " " + route.pattern().replace(":\\d+", ""))
                .toList();

        assertThat(openApi.operations()).containsExactlyInAnyOrderElementsOf(served);
    }

    @Test
    void describesParametersBodiesConstraintsProblemsAndSummariesFromTheCode() throws Exception {
        String json = get("/openapi.json").body();

        assertThat(json)
                .startsWith("{\"openapi\":\"3.1.0\",\"info\":{\"title\":\"Pets\",\"version\":\"2.1\"}")
                .contains("\"summary\":\"Lists the pets, the youngest first.\"")
                .contains("\"summary\":\"Finds a pet by its id.\"")
                .contains("{\"name\":\"limit\",\"in\":\"query\",\"required\":false,\"schema\":{\"type\":\"integer\","
                        + "\"format\":\"int32\",\"default\":20}}")
                .contains("\"schema\":{\"type\":\"integer\",\"format\":\"int64\",\"pattern\":\"^\\\\d+$\"}")
                .contains("\"name\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":40}")
                .contains("\"age\":{\"type\":\"integer\",\"format\":\"int32\",\"minimum\":0}")
                .contains("\"required\":[\"name\"]")
                .contains("\"404\":{\"description\":\"Not Found\",\"content\":{\"application/problem+json\"")
                .contains("\"/health\":{\"get\":{\"summary\":\"Says whether the service is up.\"");
    }

    @Test
    void describesTheAuthenticationOfTheFiltersAroundAControllerAndARoute() throws Exception {
        String json = get("/openapi.json").body();

        assertThat(json)
                .contains("\"securitySchemes\":{"
                        + "\"bearerJwt\":{\"type\":\"http\",\"scheme\":\"bearer\",\"bearerFormat\":\"JWT\"},"
                        + "\"apiKey-header-x-api-key\":{\"type\":\"apiKey\",\"in\":\"header\",\"name\":\"x-api-key\"},"
                        + "\"apiKey-query-api_key\":{\"type\":\"apiKey\",\"in\":\"query\",\"name\":\"api_key\"},"
                        + "\"basic\":{\"type\":\"http\",\"scheme\":\"basic\"}}")
                .contains("\"security\":[{\"apiKey-header-x-api-key\":[]},{\"apiKey-query-api_key\":[]}]")
                .contains("\"security\":[{\"bearerJwt\":[\"pets:admin\"],\"basic\":[]}]")
                .contains("\"401\":{\"description\":\"Unauthorized: credentials are missing or not valid\"")
                .contains("\"403\":{\"description\":\"Forbidden: the token does not grant what the route requires\"")
                .contains("\"503\":{\"description\":\"Service Unavailable: too many credentials are being checked");
        assertThat(operation(json, "\"/pets\":")).doesNotContain("\"security\"", "\"401\"");
        assertThat(get("/owners").statusCode()).isEqualTo(401);
        assertThat(get("/pets").statusCode()).isEqualTo(200);
    }

    @Test
    void describesTheFilterAMethodNamesOnThatMethodsOperationOnly() throws Exception {
        JsonNode paths =
                new ObjectMapper().readTree(get("/openapi.json").body()).get("paths");

        assertThat(paths.at("/~1pets~1{id}/delete/security").toString())
                .isEqualTo("[{\"bearerJwt\":[\"pets:admin\"]}]");
        assertThat(paths.at("/~1pets~1{id}/delete/responses/401").isMissingNode())
                .isFalse();
        assertThat(paths.at("/~1pets~1{id}/delete").has("x-parry-named-filters"))
                .isFalse();
        assertThat(paths.at("/~1pets~1{id}/get").has("security")).isFalse();
        assertThat(paths.at("/~1pets/post").has("security")).isFalse();
        assertThat(send("DELETE", "/pets/7").statusCode()).isEqualTo(401);
        assertThat(get("/pets/7").statusCode()).isEqualTo(404);
    }

    @Test
    void refusesToAddRoutesWhoseNamedFilterWasNotGiven() {
        ControllerRoutes unnamed = PetControllerRoutes.of(new PetController());

        assertThatThrownBy(() -> unnamed.addTo(Router.builder()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("filter: admin of PetController.remove (expected: given with ControllerRoutes.named,"
                        + " one of [])");
    }

    @Test
    void namesBothOperationsAfterTheirControllersWhenTwoControllersHaveAMethodOfOneName() throws Exception {
        String json = get("/openapi.json").body();

        assertThat(json)
                .contains("\"operationId\":\"PetController_list\"", "\"operationId\":\"OwnerController_list\"")
                .contains("\"operationId\":\"find\"")
                .doesNotContain("\"operationId\":\"list\"");
    }

    @Test
    void namesTheServerTheClientReachedThroughTheGateway() throws Exception {
        HttpRequest behindGateway = HttpRequest.newBuilder(uri("/openapi.json"))
                .header("x-forwarded-proto", "https")
                .header("x-forwarded-host", "api.example.com")
                .header("x-forwarded-prefix", "/pets-service")
                .build();

        assertThat(CLIENT.send(behindGateway, BodyHandlers.ofString()).body())
                .contains("\"servers\":[{\"url\":\"https://api.example.com/pets-service\"}]");
        assertThat(get("/openapi.json").body())
                .contains("\"servers\":[{\"url\":\"http://127.0.0.1:" + server.port() + "\"}]");
    }

    @Test
    void servesTheDocumentAsYamlAndTheDocumentationPage() throws Exception {
        java.net.http.HttpResponse<String> yaml = get("/openapi.yaml");
        java.net.http.HttpResponse<String> page = get("/docs");
        java.net.http.HttpResponse<String> bundle = get("/docs/swagger-ui-bundle.js");

        assertThat(yaml.headers().firstValue("content-type")).hasValue("application/yaml");
        assertThat(yaml.body()).startsWith("\"openapi\": \"3.1.0\"\n\"info\":\n  \"title\": \"Pets\"\n");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("content-type")).hasValue("text/html; charset=utf-8");
        assertThat(page.body()).contains("SwaggerUIBundle", "openapi.json");
        assertThat(bundle.statusCode()).isEqualTo(200);
        assertThat(get("/docs/pom.properties").statusCode()).isEqualTo(404);
    }

    @Test
    void isAValidOpenApiDocumentForAnIndependentValidator() throws Exception {
        Assumptions.assumeTrue(
                run("python3", "-c", "import openapi_spec_validator").exitCode() == 0,
                "openapi-spec-validator is missing: pip install openapi-spec-validator");
        Path json = Files.createTempFile("openapi", ".json");
        Path yaml = Files.createTempFile("openapi", ".yaml");
        Files.writeString(json, get("/openapi.json").body());
        Files.writeString(yaml, get("/openapi.yaml").body());

        for (Path document : List.of(json, yaml)) {
            Ran validator = run("python3", "-m", "openapi_spec_validator", document.toString());
            assertThat(validator.exitCode()).as(validator.output()).isZero();
        }
    }

    /** The document's text from this path's key to the next path's. */
    private static String operation(String json, String pathKey) {
        int start = json.indexOf(pathKey);
        int next = json.indexOf("\":{\"get\"", start + pathKey.length());
        return json.substring(start, next < 0 ? json.length() : next);
    }

    /** The command's exit code and output; -1 when it does not finish within a minute. */
    private static Ran run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return new Ran(-1, output);
        }
        return new Ran(process.exitValue(), output);
    }

    private record Ran(int exitCode, String output) {}

    private static java.net.http.HttpResponse<String> get(String path) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(uri(path)).build(), BodyHandlers.ofString());
    }

    private static java.net.http.HttpResponse<String> send(String method, String path) throws Exception {
        return CLIENT.send(
                HttpRequest.newBuilder(uri(path))
                        .method(method, HttpRequest.BodyPublishers.noBody())
                        .build(),
                BodyHandlers.ofString());
    }

    private static URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }
}
