package io.parry.gateway.internal.config;

/** What a route does with a request it takes: exactly one of proxy, respond or redirect. */
public sealed interface RouteAction permits ProxyAction, RespondAction, RedirectAction {}
