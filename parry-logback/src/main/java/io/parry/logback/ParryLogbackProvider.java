package io.parry.logback;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LogbackServiceProvider;
import ch.qos.logback.classic.util.ContextInitializer;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.status.StatusUtil;
import ch.qos.logback.core.util.StatusPrinter;
import io.parry.logback.internal.RequestMdcAdapter;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.Reporter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * Logback as the SLF4J provider, configured as Logback configures itself, with an MDC that answers
 * a Parry request's {@code traceId}, {@code spanId} and {@code requestId} from the request context
 * current on the thread, building their strings only when a log line or {@code MDC.get} asks. With
 * it the server puts nothing in the MDC per request; log lines, {@code MDC.get} and {@code
 * MDC.getCopyOfContextMap()} show the same ids as with Logback's own provider.
 *
 * <p>SLF4J finds it through {@code META-INF/services}. Logback's own provider is found there too, so
 * name this one: {@code -Dslf4j.provider=io.parry.logback.ParryLogbackProvider}, or, in a shaded jar,
 * leave out logback-classic's {@code META-INF/services/org.slf4j.spi.SLF4JServiceProvider}.
 *
 * <p>Other keys are Logback's MDC as usual. The request's ids win over the same keys put by the
 * application while the request's context is current, and {@code MDC.clear()} or {@code remove}
 * does not hide them: Parry owns these three keys on the threads it runs request work on.
 */
public final class ParryLogbackProvider implements SLF4JServiceProvider {
    private final LoggerContext context = new LoggerContext();
    private final IMarkerFactory markers = new BasicMarkerFactory();
    private final RequestMdcAdapter mdc = new RequestMdcAdapter();

    /** Made by SLF4J's service loading; {@link #initialize()} then configures Logback. */
    public ParryLogbackProvider() {}

    @Override
    public ILoggerFactory getLoggerFactory() {
        return context;
    }

    @Override
    public IMarkerFactory getMarkerFactory() {
        return markers;
    }

    @Override
    public MDCAdapter getMDCAdapter() {
        return mdc;
    }

    @Override
    public String getRequestedApiVersion() {
        return LogbackServiceProvider.REQUESTED_API_VERSION;
    }

    /**
     * Configures Logback as its own provider does (a configurator found by service loading, {@code
     * logback.xml}, or the default console), with this MDC set on the context before anything logs:
     * Logback's events read the context's MDC, and a second one set later would be a warning.
     */
    @Override
    public void initialize() {
        context.setName(CoreConstants.DEFAULT_CONTEXT_NAME);
        context.setMDCAdapter(mdc);
        try {
            new ContextInitializer(context).autoConfig();
        } catch (Exception e) {
            Reporter.error("Failed to auto configure default logger context", e);
        }
        if (!StatusUtil.contextHasStatusListener(context)) {
            StatusPrinter.printInCaseOfErrorsOrWarnings(context);
        }
        context.start();
    }
}
