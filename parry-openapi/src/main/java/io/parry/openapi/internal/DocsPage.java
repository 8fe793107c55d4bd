package io.parry.openapi.internal;

import io.parry.http.HttpData;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import io.parry.http.MediaType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code /docs} page: Swagger UI from its webjar, pointed at {@code openapi.json} beside it. Links are
 * relative, so the page works under whatever prefix a gateway serves it. Assets are read once, on
 * first demand, and kept.
 */
public final class DocsPage {
    private static final String WEBJAR = "META-INF/resources/webjars/swagger-ui/";
    private static final Map<String, MediaType> ASSETS = Map.of(
            "swagger-ui.css", MediaType.parse("text/css; charset=utf-8"),
            "swagger-ui-bundle.js", MediaType.parse("text/javascript; charset=utf-8"),
            "favicon-32x32.png", MediaType.parse("image/png"));
    private static final String PAGE =
            """
            <!DOCTYPE html>
            <html lang="en">
            <head>
              <meta charset="utf-8">
              <title>API documentation</title>
              <link rel="stylesheet" href="docs/swagger-ui.css">
              <link rel="icon" type="image/png" href="docs/favicon-32x32.png">
            </head>
            <body>
              <div id="swagger-ui"></div>
              <script src="docs/swagger-ui-bundle.js"></script>
              <script>
                window.ui = SwaggerUIBundle({url: "openapi.json", dom_id: "#swagger-ui", deepLinking: true});
              </script>
            </body>
            </html>
            """;

    private final Map<String, HttpData> loaded = new ConcurrentHashMap<>();
    private final HttpResponse page = HttpResponse.of(MediaType.HTML_UTF_8, HttpData.ofUtf8(PAGE));

    /** The page, {@code 200 text/html}. */
    public HttpResponse page() {
        return page;
    }

    /**
     * One of the page's assets; blocks the first time to read it from the webjar.
     *
     * @throws HttpStatusException 404 for any other name
     */
    public HttpResponse asset(String name) {
        MediaType type = ASSETS.get(name);
        if (type == null) {
            throw new HttpStatusException(HttpStatus.NOT_FOUND, "There is no such file of the documentation page.");
        }
        return HttpResponse.of(type, loaded.computeIfAbsent(name, DocsPage::read))
                .withHeader("cache-control", "public, max-age=86400");
    }

    private static HttpData read(String name) {
        ClassLoader loader = DocsPage.class.getClassLoader();
        try (InputStream properties =
                loader.getResourceAsStream("META-INF/maven/org.webjars/swagger-ui/pom.properties")) {
            if (properties == null) {
                throw new IllegalStateException(
                        "swagger-ui webjar: not on the class path (expected: org.webjars:swagger-ui)");
            }
            Properties webjar = new Properties();
            webjar.load(properties);
            try (InputStream asset = loader.getResourceAsStream(WEBJAR + webjar.getProperty("version") + "/" + name)) {
                if (asset == null) {
                    throw new IllegalStateException("swagger-ui webjar: no " + name);
                }
                return HttpData.wrap(asset.readAllBytes());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
