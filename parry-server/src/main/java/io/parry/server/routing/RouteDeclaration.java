package io.parry.server.routing;

import io.parry.http.HttpMethod;
import io.parry.server.Handler;

/** A route as declared on a builder, before prefixes, filters and scheduling are bound; {@code method} is {@code null} for every method. */
record RouteDeclaration(HttpMethod method, String pattern, Handler handler, RouteSpec spec) {}
