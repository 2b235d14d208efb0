import TransitServer

/// Runs `transit-server` (its commands live in TransitServer).
@main
enum TransitServerMain {
    static func main() async {
        await TransitServerCommand.main()
    }
}
