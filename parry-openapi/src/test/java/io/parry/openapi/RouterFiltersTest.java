package io.parry.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.parry.annotations.ControllerRoutes;
import io.parry.auth.JwksSource;
import io.parry.auth.JwtFilter;
import io.parry.http.HttpResponse;
import io.parry.server.Server;
import io.parry.server.routing.Router;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A document built with the router that serves its operations, which puts a filter around all of them. */
class RouterFiltersTest {
    private static final HttpClient CLIENT =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final JwtFilter JWT = JwtFilter.builder(JwksSource.ofJson("{\"keys\":[]}"))
            .issuer("https://idp.example")
            .audiences(List.of("pets"))
            .build();
    private static Server server;

    @BeforeAll
    static void start() {
        ControllerRoutes pets = PetControllerRoutes.of(new PetController()).named(Map.of("admin", JWT));
        Router.Builder api = Router.builder().filter(JWT).get("/health", (ctx, request) -> HttpResponse.ofText("up")
                .toStage());
        pets.addTo(api);
        Router served = api.build();
        Router.Builder site = Router.builder();
        OpenApi.builder()
                .controller(pets)
                .route("GET", "/health", RouteDescription.of("Says whether the service is up."))
                .router(served)
                .build()
                .addTo(site);
        site.mount("/", served);
        server = Server.builder().port(0).handler(site.build()).build().start();
    }

    @AfterAll
    static void stop() {
        server.stop(Duration.ofSeconds(1));
    }

    @Test
    void everyOperationBehindTheRoutersFilterRequiresItsSchemeAndIsRefusedWithoutIt() throws Exception {
        java.net.http.HttpResponse<String> document = send("GET", "/openapi.json");
        JsonNode paths = new ObjectMapper().readTree(document.body()).get("paths");
        List<String> secured = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        for (Map.Entry<String, JsonNode> path : paths.properties()) {
            for (Map.Entry<String, JsonNode> operation : path.getValue().properties()) {
                String method = operation.getKey().toUpperCase(Locale.ROOT);
                String line = method + " " + path.getKey();
                if (operation.getValue().has("security")) {
                    secured.add(line);
                }
                if (send(method, path.getKey().replace("{id}", "7")).statusCode() == 401) {
                    refused.add(line);
                }
            }
        }

        assertThat(document.statusCode()).isEqualTo(200);
        assertThat(secured).hasSize(5).containsExactlyElementsOf(refused);
        assertThat(paths.at("/~1health/get/security").toString()).isEqualTo("[{\"bearerJwt\":[]}]");
    }

    private static java.net.http.HttpResponse<String> send(String method, String path) throws Exception {
        return CLIENT.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                        .method(method, HttpRequest.BodyPublishers.noBody())
                        .build(),
                BodyHandlers.ofString());
    }
}
