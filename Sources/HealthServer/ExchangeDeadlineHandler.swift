import NIOCore
import NIOHTTPTypes
import CheckedNumbers

/// Closes a connection that takes too long over any part of an exchange (see `ConnectionLimits`):
/// - waiting for a request, with no byte of it yet: `idleTimeout` (keep-alive, or right after connecting);
/// - from a request's first byte to its complete head: `headerTimeout`;
/// - from its head to the end of its body: `bodyTimeout`.
/// While the server works on an answer no clock runs: how long a handler takes is the handler's business.
/// Each deadline is a fixed time from the start of its phase, so a client trickling one byte at a time
/// gains nothing.
final class ExchangeDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private enum Phase {
        case idle, head, body, answering
    }

    private let limits: ConnectionLimits
    private var phase = Phase.idle
    /// Requests whose head arrived and whose answer has not been written to its end.
    private var unanswered = 0
    private var deadline: Scheduled<Void>?

    init(limits: ConnectionLimits) { self.limits = limits }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(limits.idleTimeout, context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) { disarm() }

    func channelActive(context: ChannelHandlerContext) {
        if deadline == nil { arm(limits.idleTimeout, context) }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is RequestBytesArrived else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        if phase == .idle {
            phase = .head
            arm(limits.headerTimeout, context)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            phase = .body
            unanswered += 1
            arm(limits.bodyTimeout, context)
        case .body:
            break
        case .end:
            if unanswered > 0 {
                phase = .answering
                disarm()
            } else {
                // Answered before its body had all arrived (a 404, a 413): now only waiting again.
                phase = .idle
                arm(limits.idleTimeout, context)
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            unanswered = max(0, unanswered - 1)
            if unanswered == 0, phase == .answering {
                phase = .idle
                arm(limits.idleTimeout, context)
            }
        }
        context.write(data, promise: promise)
    }

    private func arm(_ seconds: Double, _ context: ChannelHandlerContext) {
        disarm()
        let channel = context.channel
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(Int64(rounding: seconds * 1_000_000_000))) {
            channel.close(promise: nil)
        }
    }

    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }
}
