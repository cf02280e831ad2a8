import NIOCore
import NIOHTTPTypes
import CheckedNumbers

/// Closes a connection that takes too long over any part of an exchange (see `ConnectionLimits`):
/// - waiting for a request, with no byte of it yet: `idleTimeout` (keep-alive, or right after connecting);
/// - from a request's first byte to its complete head: `headerTimeout`;
/// - from its head to the end of its body: `bodyTimeout`;
/// - whenever the connection cannot take more of an answer because the client does not read it:
///   `writeTimeout` (a client pipelining requests and reading none of the answers held its
///   connection forever). It stands in for the phase's own deadline until the client makes room again.
/// While the server works on an answer no other clock runs: how long a handler takes is the handler's
/// business. Each phase's deadline is a fixed time from the start of the phase, so a client trickling one
/// byte at a time gains nothing.
///
/// It also tells `OpenConnections` whether the connection may be shed to make room for a new one: while it
/// waits for a request or has only part of its head, not once a whole head has arrived.
final class ExchangeDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private enum Phase {
        case idle, head, body, answering

        var isSheddable: Bool { self == .idle || self == .head }
    }

    private let limits: ConnectionLimits
    /// Where the connection's phase is reported; nil for a connection refused over the cap.
    private let registry: (connections: OpenConnections, ticket: OpenConnections.Ticket)?
    private var phase = Phase.idle {
        didSet {
            if phase.isSheddable != oldValue.isSheddable, let registry {
                registry.connections.setSheddable(registry.ticket, phase.isSheddable)
            }
        }
    }
    /// Requests whose head arrived and whose answer has not been written to its end.
    private var unanswered = 0
    /// When the current phase's own deadline falls; nil while answering.
    private var phaseDeadline: NIODeadline?
    /// When the connection is closed unless the client reads; set only while the channel is not writable.
    private var writeDeadline: NIODeadline?
    private var scheduled: Scheduled<Void>?

    init(limits: ConnectionLimits, registry: (connections: OpenConnections, ticket: OpenConnections.Ticket)?) {
        self.limits = limits
        self.registry = registry
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(.idle, timeout: limits.idleTimeout, context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) { cancelScheduled() }

    func channelActive(context: ChannelHandlerContext) {
        if scheduled == nil { start(.idle, timeout: limits.idleTimeout, context) }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelScheduled()
        context.fireChannelInactive()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        // NIO turns a channel unwritable once its queued answers pass the high watermark (64 KB): the kernel's
        // buffers are full, so the client is not reading. Writable again means it read enough to make room.
        if context.channel.isWritable {
            writeDeadline = nil
        } else if writeDeadline == nil {
            writeDeadline = .fromNow(limits.writeTimeout)
        }
        schedule(context)
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is RequestBytesArrived else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        if phase == .idle { start(.head, timeout: limits.headerTimeout, context) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            unanswered += 1
            start(.body, timeout: limits.bodyTimeout, context)
        case .body:
            break
        case .end:
            if unanswered > 0 {
                start(.answering, timeout: nil, context)
            } else {
                // Answered before its body had all arrived (a 404, a 413): now only waiting again.
                start(.idle, timeout: limits.idleTimeout, context)
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            unanswered = max(0, unanswered - 1)
            if unanswered == 0, phase == .answering { start(.idle, timeout: limits.idleTimeout, context) }
        }
        context.write(data, promise: promise)
    }

    /// Enters `phase`, whose own deadline is `timeout` seconds from now (none for nil).
    private func start(_ phase: Phase, timeout: Double?, _ context: ChannelHandlerContext) {
        self.phase = phase
        phaseDeadline = timeout.map(NIODeadline.fromNow)
        schedule(context)
    }

    /// Schedules the close for the deadline in force: the write deadline while the client is not reading,
    /// else the phase's own (kept from the phase's start, so a pause for writing extends nothing).
    private func schedule(_ context: ChannelHandlerContext) {
        cancelScheduled()
        guard let due = writeDeadline ?? phaseDeadline else { return }
        let channel = context.channel
        scheduled = context.eventLoop.assumeIsolated().scheduleTask(deadline: due) {
            channel.close(promise: nil)
        }
    }

    private func cancelScheduled() {
        scheduled?.cancel()
        scheduled = nil
    }
}

private extension NIODeadline {
    /// `seconds` from now, to the nanosecond.
    static func fromNow(_ seconds: Double) -> NIODeadline {
        .now() + .nanoseconds(Int64(rounding: seconds * 1_000_000_000))
    }
}
