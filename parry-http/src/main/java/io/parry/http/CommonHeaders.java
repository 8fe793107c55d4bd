package io.parry.http;

/** Content-Type headers of the most common media types, built once. */
final class CommonHeaders {
    static final HttpHeaders PLAIN_TEXT = HttpHeaders.of("content-type", MediaType.PLAIN_TEXT_UTF_8.toString());
    static final HttpHeaders JSON = HttpHeaders.of("content-type", MediaType.JSON.toString());
    static final HttpHeaders PROBLEM_JSON = HttpHeaders.of("content-type", MediaType.PROBLEM_JSON.toString());

    private CommonHeaders() {}
}
