import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// Hummingbird's HTTP/1 connection with hmon's guards in front: the connection caps, checked
/// as each connection is accepted (`OpenConnections`, which may shed an idle one to make room, and
/// `RequestBytesTap`, which answers the refused), and the header, body, idle and write deadlines
/// (`ExchangeDeadlineHandler`, between the HTTP decoder and the router), and the close of a connection
/// that keeps sending after being told to wait (`RefusalStreakHandler`), whose address's next connections
/// then wait a few seconds before they are read (`RefusedAddresses`).
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let responder: HTTPChannelHandler.Responder
    let limits: ConnectionLimits
    let connections: OpenConnections
    let refusedAddresses: RefusedAddresses

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let limits = self.limits
        let connections = self.connections
        let refusedAddresses = self.refusedAddresses
        return channel.eventLoop.makeCompletedFuture { () -> OpenConnections.Ticket? in
            let ticket: OpenConnections.Ticket?
            switch connections.admit(channel, from: channel.remoteAddress?.ipAddress) {
            case .admitted(let admitted):
                ticket = admitted
                channel.closeFuture.whenComplete { _ in connections.release(admitted) }
            case .refused:
                ticket = nil
            }
            try channel.pipeline.syncOperations.addHandler(RequestBytesTap(refuse: ticket == nil))
            // One read of at most 16 KB at a time: everything read is parsed at once, so a client that pipelines
            // megabytes would otherwise make the event loop parse thousands of requests it may never answer
            // (the connection is closed at its tenth 429), while other connections wait on that loop.
            try channel.syncOptions?.setOption(ChannelOptions.maxMessagesPerRead, value: 1)
            try channel.syncOptions?.setOption(ChannelOptions.recvAllocator,
                                               value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 2048, maximum: ServerLimits.readBytes))
            if ticket != nil, let wait = refusedAddresses.waitBeforeReading(channel.remoteAddress?.ipAddress) {
                // Its address was just disconnected for pipelining on through refusals: held unread for now,
                // at no cost (its idle deadline still runs).
                try channel.syncOptions?.setOption(ChannelOptions.autoRead, value: false)
                channel.eventLoop.scheduleTask(in: wait) {
                    channel.setOption(ChannelOptions.autoRead, value: true).whenFailure { _ in }
                }
            }
            return ticket
        }.flatMap { ticket in
            let registry = ticket.map { (connections: connections, ticket: $0) }
            return HTTP1Channel(responder: responder,
                                configuration: .init(additionalChannelHandlers: [
                                    ExchangeDeadlineHandler(limits: limits, registry: registry),
                                    RefusalStreakHandler(limit: ServerLimits.refusalsBeforeClose, refusedAddresses: refusedAddresses),
                                ]))
                .setup(channel: channel, logger: logger)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await HTTP1Channel(responder: responder).handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 with hmon's connection guards.
    static func guardedHTTP1(limits: ConnectionLimits, connections: OpenConnections,
                             refusedAddresses: RefusedAddresses) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            GuardedHTTP1Channel(responder: responder, limits: limits, connections: connections, refusedAddresses: refusedAddresses)
        }
    }
}
