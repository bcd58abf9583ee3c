// Helpers of the tests of the SwiftObserver compatibility layer. The threads, locked state and
// seeded randomness that every test target uses come from `SharedTestSupport`, the variable
// recorder from `MessagingTestSupport`.

import Foundation
import Messaging
@_exported import MessagingTestSupport
@_exported import SharedTestSupport
