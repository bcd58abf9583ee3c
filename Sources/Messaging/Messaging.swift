@_exported import GeneralObserver
