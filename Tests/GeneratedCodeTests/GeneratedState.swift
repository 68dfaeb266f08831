import GeneratedPackage
import GeneratedPublic

@testable import GeneratedInternal

/// What every generated type offers, so one test can exercise all of them.
protocol GeneratedState {
    associatedtype Coarse: RawRepresentable where Coarse.RawValue == String
    init(fineValue: Int) throws
    var fineValue: Int { get }
    associatedtype Window: RawRepresentable where Window.RawValue == Int
    func coarseValue(in window: Window) -> Coarse
    func shouldLock(in window: Window) -> Bool
}

extension GeneratedInternal.Shop: GeneratedState {}
extension GeneratedInternal.EventFlags: GeneratedState {}
extension GeneratedInternal.Subscription: GeneratedState {}
extension GeneratedInternal.`Protocol`: GeneratedState {}
extension GeneratedInternal.ShopMarked: GeneratedState {}
extension GeneratedPackage.Shop: GeneratedState {}
extension GeneratedPackage.EventFlags: GeneratedState {}
extension GeneratedPackage.Subscription: GeneratedState {}
extension GeneratedPackage.`Protocol`: GeneratedState {}
extension GeneratedPackage.ShopMarked: GeneratedState {}
extension GeneratedPublic.Shop: GeneratedState {}
extension GeneratedPublic.EventFlags: GeneratedState {}
extension GeneratedPublic.Subscription: GeneratedState {}
extension GeneratedPublic.`Protocol`: GeneratedState {}
extension GeneratedPublic.ShopMarked: GeneratedState {}
